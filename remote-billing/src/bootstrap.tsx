import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import RegisterResultPage from './features/register-result/register-result-page';

void mountStandaloneShell('remote-billing', [{ path: '/register', Page: RegisterResultPage }]);
