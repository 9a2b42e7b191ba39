import { Navigate, useLocation } from '@kabari/shared/routing/router';
import { useSignedIn } from '@kabari/shared/stores/session-store';
import { useHydrated } from '@kabari/shared/ui/use-hydrated';
import { ErrorPage } from '../features/errors/error-page';
import { RemotePage } from '../features/federation/remote-page';
import { RouteDialog } from '../features/route-dialogs/route-dialog';
import { useSubscriptionCheck } from '../features/subscription/use-subscription-check';
import { guardRedirect } from '../lib/route-guard';
import { isExpiredState } from '../lib/route-targets';
import type { AppRoute } from '../lib/route-table';

function SubscriptionCheck() {
  useSubscriptionCheck();
  return null;
}

/**
 * One route: its guard, its validity check, its page, and the dialog of a modal route. The guard and
 * the check read the browser (the stored user, the query string), so on a prerendered page they act
 * once hydrated: the first render matches the prerendered HTML.
 */
export function RouteView({ route }: { route: AppRoute }) {
  const hydrated = useHydrated();
  const signedIn = useSignedIn();
  const location = useLocation();
  if (hydrated) {
    const redirect = guardRedirect(route.access, signedIn, location.pathname, location.search);
    if (redirect) return <Navigate to={redirect} replace />;
    if (route.isValid && !route.isValid(location)) {
      return <ErrorPage statusCode={404} failedPath={location.pathname} />;
    }
  }
  return (
    <>
      {route.access === 'protected' && <SubscriptionCheck />}
      {route.page ? (
        // Keyed so that moving between two remote pages never carries one page's error state over,
        // while the dashboard stays mounted as its modal routes come and go.
        <RemotePage key={`${route.page.remote}/${route.page.exposed}`} {...route.page} />
      ) : (
        <ErrorPage statusCode={404} />
      )}
      {route.dialog && <RouteDialog name={route.dialog} />}
      {/* The expired-subscription state is the dashboard with the subscription-expired dialog over it. */}
      {route.name === 'dashboard' && hydrated && isExpiredState(location.pathname, location.search) && (
        <RouteDialog name="subscriptionExpiredModal" />
      )}
    </>
  );
}
