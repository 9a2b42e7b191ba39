import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import EnterLinkPage from './features/consent/enter-link-page';
import LocationFailedPage from './features/location-failed/location-failed-page';
import SharePage from './features/share/share-page';

void mountStandaloneShell('remote-share', [
  { path: '/enter-link', Page: EnterLinkPage },
  { path: '/share', Page: SharePage },
  { path: '/location-failed', Page: LocationFailedPage },
]);
