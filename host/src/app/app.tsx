import { BrowserRouter } from '@kabari/shared/routing/router';
import { SiteLayout } from '../features/layout/site-layout';
import { AppRoutes } from './app-routes';

export function App() {
  return (
    <BrowserRouter>
      <SiteLayout>
        <AppRoutes />
      </SiteLayout>
    </BrowserRouter>
  );
}
