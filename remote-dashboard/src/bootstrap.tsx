import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import DashboardPage from './app/dashboard-page';

void mountStandaloneShell('remote-dashboard', [{ path: '/dashboard', Page: DashboardPage }]);
