import i18n from 'i18next';
import { setUpApiClient } from '@kabari/shared/api/api-setup';
import { clearSession } from '@kabari/shared/stores/session-store';
import { navigateTo } from '../../lib/app-navigation';
import { currentLocale, expiredStatePath, homePath, isExpiredState } from '../../lib/route-targets';
import { showToast } from '@kabari/shared/ui/toasts';
import { installApiInterceptors, type ApiEffects } from './api-interceptors';
import { hostApiHeaderSource } from '../../lib/host-api-header-source';

const t = (key: 'toasts.sessionExpired' | 'toasts.requestFailed' | 'toasts.networkError') =>
  i18n.t(key, { ns: 'host' });

export const hostApiEffects: ApiEffects = {
  ...hostApiHeaderSource,
  sessionExpired: () => {
    clearSession();
    navigateTo(homePath(currentLocale()), { replace: true });
    // Keyed: several calls failing together show one toast.
    showToast('error', t('toasts.sessionExpired'), { key: 'session-expired' });
  },
  forbidden: () => {
    if (isExpiredState(window.location.pathname, window.location.search)) return;
    navigateTo(expiredStatePath(currentLocale()), { replace: true });
  },
  toastError: (message) => showToast('error', message ?? t('toasts.requestFailed')),
  toastNetworkError: () => showToast('error', t('toasts.networkError'), { key: 'network-error' }),
  networkErrorMessage: () => t('toasts.networkError'),
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Called once at start-up, before any page: the one axios instance gets the host's interceptors the
 * moment anyone (host or remote) loads it. axios itself still loads only with the first call.
 */
export function installHostApi(): void {
  setUpApiClient((client) => installApiInterceptors(client, hostApiEffects));
}
