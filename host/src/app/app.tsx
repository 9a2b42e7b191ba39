import { BrowserRouter } from '@kabari/shared/routing/router';
import { AuthDialogs } from '../features/auth/auth-dialogs';
import { useBuildUpdates } from '../features/build-updates/use-build-updates';
import { SiteLayout } from './site-layout';
import { useRegisterAppNavigation } from '../lib/app-navigation';
import { useRouteRules } from '../features/route-rules/use-route-rules';
import { useVisitorReport } from '../features/visitor/use-visitor-report';
import { AppRoutes } from './app-routes';

/** What the app does beside its pages, all after hydration (effects): it renders nothing. */
function AppServices() {
  useRegisterAppNavigation();
  useRouteRules();
  useVisitorReport();
  useBuildUpdates();
  return null;
}

export function App() {
  return (
    <BrowserRouter>
      <AppServices />
      <SiteLayout>
        <AppRoutes />
      </SiteLayout>
      <AuthDialogs />
    </BrowserRouter>
  );
}
