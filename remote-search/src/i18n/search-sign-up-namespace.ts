import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-sign-up.en.json';
import id from './search-sign-up.id.json';

// The sign-up dialog's texts: loaded with the dialog, not with the home page.
export const searchSignUpNamespace = 'search-sign-up';
registerNamespace(searchSignUpNamespace, { en, id });
