import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './requests.en.json';
import id from './requests.id.json';

// The number search's texts (phone input, searching modal), used by the home page and the dashboard.
export const requestsNamespace = 'requests';
registerNamespace(requestsNamespace, { en, id });
