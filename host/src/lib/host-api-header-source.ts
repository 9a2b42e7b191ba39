import { useTokenStore } from '@kabari/shared/stores/session-store';
import { currentLocale } from './route-targets';
import { loadRuntimeConfig } from './runtime-config';
import type { ApiHeaderSource } from './api-headers';

/** The token from the session store, the application id and API base from the runtime configuration. */
export const hostApiHeaderSource: ApiHeaderSource = {
  token: () => useTokenStore.getState().token,
  runtimeConfig: loadRuntimeConfig,
  locale: currentLocale,
};
