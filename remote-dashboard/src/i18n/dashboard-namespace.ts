import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './dashboard.en.json';
import id from './dashboard.id.json';

export const dashboardNamespace = 'dashboard';
registerNamespace(dashboardNamespace, { en, id });
