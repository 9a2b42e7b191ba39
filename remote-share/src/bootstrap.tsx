import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import EnterLinkPage from './features/consent/enter-link-page';

void mountStandaloneShell('remote-share', [{ path: '/enter-link', Page: EnterLinkPage }]);
