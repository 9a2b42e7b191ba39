import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import { REMOTE_NAMES, type Config } from '../config';
import { tileOrigin } from '../live/map-config';

/** Origins the remotes are loaded from when REMOTE_*_URL points elsewhere (a CDN, another instance). */
export function remoteOrigins(config: Config): string[] {
  const origins = new Set<string>();
  for (const name of REMOTE_NAMES) {
    const url = config.remotes[name];
    if (url.startsWith('/')) continue;
    origins.add(new URL(url).origin);
  }
  return [...origins];
}

export function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const remotes = remoteOrigins(config);
  const tiles = tileOrigin(config.map.tileUrl);
  return {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    scriptSrc: ["'self'", ...remotes],
    // antd writes its CSS-in-JS into <style> tags at run time.
    styleSrc: ["'self'", "'unsafe-inline'", ...remotes],
    // Map tiles come from tile servers over https; a TILE_URL on plain http (a local tile server) is named.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...(tiles.startsWith('http:') ? [tiles] : [])],
    fontSrc: ["'self'", 'data:', ...remotes],
    connectSrc: ["'self'", ...remotes],
    workerSrc: ["'self'", 'blob:'],
    // The app is also served over plain http (localhost, tests): never force https sub-requests.
    upgradeInsecureRequests: null,
  };
}

export default fp(
  async (app, options: { config: Config }) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options.config) },
      // HSTS only makes sense where the site is really served over https.
      strictTransportSecurity: options.config.publicUrl.startsWith('https:') ? undefined : false,
    });
  },
  { name: 'helmet' },
);
