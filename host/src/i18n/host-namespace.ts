import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './host.en.json';
import id from './host.id.json';

export const hostNamespace = 'host';
registerNamespace(hostNamespace, { en, id });
