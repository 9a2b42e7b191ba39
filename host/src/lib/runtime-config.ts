import { fetchRuntimeConfig, type RuntimeConfig } from '@kabari/shared/config/runtime-config';

let loading: Promise<RuntimeConfig> | null = null;

/**
 * The server's runtime configuration (remotes, API base, application id), fetched once and shared by
 * the federation loader and the API client. A failure is forgotten, so the next caller tries again.
 */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  loading ??= fetchRuntimeConfig().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
