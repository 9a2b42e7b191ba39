/**
 * Where Quick exit on "Who can see me" goes: a page anyone might have open (a weather search), that loads fast on any
 * phone and says nothing about Kabari. The page's script goes there itself; without the script the server sends the
 * browser there once it has ended the session. Why this page: docs/product-decisions.md.
 */
export const QUICK_EXIT_URL = 'https://www.google.com/search?q=weather';
