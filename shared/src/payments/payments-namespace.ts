import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './payments.en.json';
import id from './payments.id.json';

// The payment form's texts, shared by the sign-up (remote-search) and the renewal (remote-billing).
export const paymentsNamespace = 'payments';
registerNamespace(paymentsNamespace, { en, id });
