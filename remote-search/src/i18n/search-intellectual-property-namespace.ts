import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-intellectual-property.en.json';
import id from './search-intellectual-property.id.json';

// This page's texts in a namespace of their own: only its page loads them, not the home page.
export const searchIntellectualPropertyNamespace = 'search-intellectual-property';
registerNamespace(searchIntellectualPropertyNamespace, { en, id });
