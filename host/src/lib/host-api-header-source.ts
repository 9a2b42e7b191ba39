import { currentLocale } from './route-targets';
import { loadRuntimeConfig } from './runtime-config';
import type { ApiHeaderSource } from './api-headers';

/** The application id and API base from the runtime configuration, the language of the page. */
export const hostApiHeaderSource: ApiHeaderSource = {
  runtimeConfig: loadRuntimeConfig,
  locale: currentLocale,
};
