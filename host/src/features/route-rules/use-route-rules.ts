import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { applyRouteRules, fetchRouteRules, type RouteRules } from './route-rules';

/** Applies the build's route rules on every navigation, once they have arrived. */
export function useRouteRules(): void {
  const [rules, setRules] = useState<RouteRules | null>(null);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    let current = true;
    fetchRouteRules()
      .then((loaded) => current && setRules(loaded))
      // Without rules the app works as built: a failed fetch is only logged.
      .catch((error: unknown) => console.warn('[kabari] route rules unavailable', error));
    return () => {
      current = false;
    };
  }, []);

  useEffect(() => {
    if (!rules) return;
    const outcome = applyRouteRules(rules, new URL(window.location.href));
    if (!outcome) return;
    if (outcome.kind === 'external') window.location.assign(outcome.url);
    else navigate(outcome.path, { replace: true });
  }, [rules, location, navigate]);
}
