import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-terms.en.json';
import id from './search-terms.id.json';

// A long text in a namespace of its own: only its page loads it, not the home page.
export const searchTermsNamespace = 'search-terms';
registerNamespace(searchTermsNamespace, { en, id });
