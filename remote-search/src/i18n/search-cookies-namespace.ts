import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-cookies.en.json';
import id from './search-cookies.id.json';

// A long text in a namespace of its own: only its page loads it, not the home page.
export const searchCookiesNamespace = 'search-cookies';
registerNamespace(searchCookiesNamespace, { en, id });
