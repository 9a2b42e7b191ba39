import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-contact-us.en.json';
import id from './search-contact-us.id.json';

// This page's texts in a namespace of their own: only its page loads them, not the home page.
export const searchContactUsNamespace = 'search-contact-us';
registerNamespace(searchContactUsNamespace, { en, id });
