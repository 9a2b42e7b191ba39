// Every page has an English path and an Indonesian twin under /id: `/faqs` and `/id/faqs`, `/` and `/id/`.

/** A page's English path: `/id/faqs` → `/faqs`, `/id` and `/id/` → `/`; an English path is kept as it is. */
export function englishPathOf(pathname: string): string {
  if (pathname === '/id' || pathname === '/id/') return '/';
  return pathname.startsWith('/id/') ? pathname.slice(3) : pathname;
}

/** A page's Indonesian twin: `/faqs` → `/id/faqs`, `/` → `/id/`. */
export function indonesianPathOf(pathname: string): string {
  const english = englishPathOf(pathname);
  return english === '/' ? '/id/' : `/id${english}`;
}
