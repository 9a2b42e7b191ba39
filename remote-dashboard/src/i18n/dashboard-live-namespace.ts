import { registerNamespace } from '@kabari/shared/i18n/register-namespace';
import en from './dashboard-live.en.json';
import id from './dashboard-live.id.json';

// The live map's texts: loaded with the dashboard, the map itself comes later in its own chunk.
export const dashboardLiveNamespace = 'dashboard-live';
registerNamespace(dashboardLiveNamespace, { en, id });
