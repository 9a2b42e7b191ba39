import * as z from 'zod/mini';
import type { ApiData } from '../api/api-types';
import { fetchRuntimeConfigData } from './runtime-config-check';

/** GET /runtime-config.json. */
export type RuntimeConfig = ApiData<'/runtime-config.json', 'get'>;
/** The remotes the server's runtime configuration names (their container names: federation-names.ts). */
export type RemoteName = keyof RuntimeConfig['remotes'];

// Checked at run time too: the configuration may come from a server deployed apart from this build. The recipient's
// pages check it without zod (runtime-config-check.ts), to the same verdicts.
const runtimeConfigSchema: z.ZodMiniType<RuntimeConfig> = z.object({
  apiBaseUrl: z.string(),
  /** Sent as the application-id header of every API call. */
  appId: z.string().check(z.minLength(1)),
  remotes: z.object({
    search: z.string().check(z.minLength(1)),
    dashboard: z.string().check(z.minLength(1)),
    billing: z.string().check(z.minLength(1)),
    share: z.string().check(z.minLength(1)),
    operator: z.string().check(z.minLength(1)),
  }),
  /** The requester's map: a Leaflet tile URL template and the attribution (HTML) its provider requires. */
  map: z.object({
    tileUrl: z.string().check(z.minLength(1)),
    tileAttribution: z.string().check(z.minLength(1)),
  }),
});

/**
 * The server says at run time where each remote's mf-manifest.json lives, so a remote can be
 * redeployed (or moved to another origin) without rebuilding the host.
 */
export async function fetchRuntimeConfig(url = '/runtime-config.json'): Promise<RuntimeConfig> {
  const parsed = runtimeConfigSchema.safeParse(await fetchRuntimeConfigData(url));
  if (!parsed.success) throw new Error(`Runtime configuration is invalid: ${parsed.error.message}`);
  return parsed.data;
}
