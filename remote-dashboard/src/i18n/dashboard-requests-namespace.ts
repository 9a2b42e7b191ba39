import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './dashboard-requests.en.json';
import id from './dashboard-requests.id.json';

// Location requests on the dashboard (new search, messages, links, history, tips): a namespace of their own.
export const dashboardRequestsNamespace = 'dashboard-requests';
registerNamespace(dashboardRequestsNamespace, { en, id });
