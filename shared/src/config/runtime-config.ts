import * as z from 'zod/mini';
import type { ApiData } from '../api/api-types';
import { isEnvelope } from '../api/envelope';

/** GET /runtime-config.json. */
export type RuntimeConfig = ApiData<'/runtime-config.json', 'get'>;
/** The remotes the server's runtime configuration names: a remote added there is missing below until added. */
export type RemoteName = keyof RuntimeConfig['remotes'];

/** Each remote's `federationName` in apps.js, built in (webpack/create-config.js; jest.web-project.js in tests). */
declare const __KABARI_FEDERATION_NAMES__: Record<RemoteName, string>;

/** Each `lightFederationName` in apps.js: the light containers some remotes build too, built in like the above. */
declare const __KABARI_LIGHT_FEDERATION_NAMES__: Partial<Record<RemoteName, string>>;

/** Module Federation container names (a test checks that apps.js names the server's remotes). */
export const federationNames: Record<RemoteName, string> = __KABARI_FEDERATION_NAMES__;
export const remoteNames = Object.keys(federationNames) as RemoteName[];
/** The global names of the remotes' light containers (webpack's own Module Federation), by remote. */
export const lightFederationNames: Partial<Record<RemoteName, string>> = __KABARI_LIGHT_FEDERATION_NAMES__;

// Checked at run time too: the configuration may come from a server deployed apart from this build.
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
  const response = await fetch(url, { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable (HTTP ${response.status})`);
  const body: unknown = await response.json();
  const data = isEnvelope(body) ? body.data : body;
  const parsed = runtimeConfigSchema.safeParse(data);
  if (!parsed.success) throw new Error(`Runtime configuration is invalid: ${parsed.error.message}`);
  return parsed.data;
}
