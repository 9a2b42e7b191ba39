// Apart from runtime-config.ts, so that the recipient's pages can name their container without loading zod.
import type { RemoteName } from './runtime-config';

/** Each remote's `federationName` in apps.js, built in (webpack/create-config.js; jest.web-project.js in tests). */
declare const __KABARI_FEDERATION_NAMES__: Record<RemoteName, string>;

/** Each `lightFederationName` in apps.js: the light containers some remotes build too, built in like the above. */
declare const __KABARI_LIGHT_FEDERATION_NAMES__: Partial<Record<RemoteName, string>>;

/** Module Federation container names (a test checks that apps.js names the server's remotes). */
export const federationNames: Record<RemoteName, string> = __KABARI_FEDERATION_NAMES__;
export const remoteNames = Object.keys(federationNames) as RemoteName[];
/** The global names of the remotes' light containers (webpack's own Module Federation), by remote. */
export const lightFederationNames: Partial<Record<RemoteName, string>> = __KABARI_LIGHT_FEDERATION_NAMES__;
