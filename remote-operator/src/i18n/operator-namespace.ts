import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './operator.en.json';
import id from './operator.id.json';

export const operatorNamespace = 'operator';
registerNamespace(operatorNamespace, { en, id });
