import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './billing.en.json';
import id from './billing.id.json';

export const billingNamespace = 'billing';
registerNamespace(billingNamespace, { en, id });
