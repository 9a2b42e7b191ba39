import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import HomePage from './features/home/home-page';

void mountStandaloneShell('remote-search', [{ path: '/', Page: HomePage }]);
