import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search.en.json';
import id from './search.id.json';

export const searchNamespace = 'search';
registerNamespace(searchNamespace, { en, id });
