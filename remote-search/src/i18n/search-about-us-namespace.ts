import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-about-us.en.json';
import id from './search-about-us.id.json';

// This page's texts in a namespace of their own: only its page loads them, not the home page.
export const searchAboutUsNamespace = 'search-about-us';
registerNamespace(searchAboutUsNamespace, { en, id });
