import { useEffect } from 'react';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { useLocation, useNavigate } from '@kabari/shared/routing/router';
import { useSignedIn } from '@kabari/shared/stores/session-store';
import { expiredStatePath, isExpiredState } from '../../lib/route-targets';

/**
 * On every protected navigation, fetch the subscription info; an expired one
 * (expiredStatus 1) sends the user to /dashboard/?s=-1&at=10 unless already there. The call and axios
 * load lazily with it.
 */
export function useSubscriptionCheck(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const { key, pathname, search } = location;
  useEffect(() => {
    if (!signedIn) return;
    // Cleared when the user navigates on: an answer about the previous page is then ignored.
    let current = true;
    import('./subscription-info')
      .then(async ({ fetchSubscriptionInfo, isExpired }) => {
        const info = await fetchSubscriptionInfo();
        if (!current) return;
        if (isExpired(info) && !isExpiredState(pathname, search)) {
          navigate(expiredStatePath(localeFromPath(pathname)), { replace: true });
        }
      })
      // A failed call was already handled by the API client (toast, or the 401/403 redirect).
      .catch(() => undefined);
    return () => {
      current = false;
    };
    // key changes with every navigation, also to the same URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- pathname and search change only with key
  }, [key, signedIn, navigate]);
}
