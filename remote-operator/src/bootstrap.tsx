import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import OperatorConsole from './app/operator-console';

// The console routes within /operator itself; the shell gives it that path (and /id/operator).
void mountStandaloneShell('remote-operator', [{ path: '/operator/*', Page: OperatorConsole }]);
