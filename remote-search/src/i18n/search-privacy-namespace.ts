import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-privacy.en.json';
import id from './search-privacy.id.json';

// A long text in a namespace of its own: only its page loads it, not the home page.
export const searchPrivacyNamespace = 'search-privacy';
registerNamespace(searchPrivacyNamespace, { en, id });
