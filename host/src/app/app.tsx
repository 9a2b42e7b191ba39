import { BrowserRouter, useLocation } from 'react-router-dom';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { AppProviders } from '@kabari/shared/ui/app-providers';
import { SiteLayout } from '../features/layout/site-layout';
import { AppRoutes } from './app-routes';

function LocalizedApp() {
  const { pathname } = useLocation();
  return (
    <AppProviders locale={localeFromPath(pathname)}>
      <SiteLayout>
        <AppRoutes />
      </SiteLayout>
    </AppProviders>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <LocalizedApp />
    </BrowserRouter>
  );
}
