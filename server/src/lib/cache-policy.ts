import path from 'node:path';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
// Revalidate every time (with the ETag): HTML, manifests, remoteEntry.js and the runtime configuration
// must change the moment a new build is deployed.
export const REVALIDATE = 'no-cache';

// A content hash in the name, as the webpack builds emit it: `main.3f9a1c2b7d.js`.
const HASHED_NAME = /\.[0-9a-f]{8,}\./i;

/** True for a build file whose name carries its content hash, so its content never changes. */
export function isHashedAsset(filePath: string): boolean {
  const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
  return HASHED_NAME.test(name);
}

export function cacheControlFor(filePath: string): string {
  return isHashedAsset(filePath) ? IMMUTABLE : REVALIDATE;
}
