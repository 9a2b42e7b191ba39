import { mountStandaloneShell } from '@kabari/shared/ui/standalone-shell';
import { publicPages } from './public-pages';

void mountStandaloneShell(
  'remote-search',
  Object.entries(publicPages).map(([path, Page]) => ({ path, Page })),
);
