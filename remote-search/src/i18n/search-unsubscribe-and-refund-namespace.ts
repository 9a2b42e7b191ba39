import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './search-unsubscribe-and-refund.en.json';
import id from './search-unsubscribe-and-refund.id.json';

// This page's texts in a namespace of their own: only its page loads them, not the home page.
export const searchUnsubscribeAndRefundNamespace = 'search-unsubscribe-and-refund';
registerNamespace(searchUnsubscribeAndRefundNamespace, { en, id });
