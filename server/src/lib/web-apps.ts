// The web apps are listed once, in the repository's apps.js, which the build, dev, test and lint scripts read too:
// the server names the remotes from it (their REMOTE_<NAME>_URL variables, their manifests' default addresses,
// their folders). The path is the same from src/lib and from dist/lib.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file outside the server's sources
const { remotes } = require('../../../apps.js') as {
  remotes: ReadonlyArray<{ name: string; folder: string }>;
};

export interface WebRemote {
  /** Its name in the runtime configuration: `search`. */
  name: string;
  /** Its folder under the web root: `remote-search`. */
  folder: string;
  /** The variable that moves its manifest elsewhere: `REMOTE_SEARCH_URL`. */
  variable: string;
  /** Its manifest where this server serves it. */
  defaultManifestUrl: string;
}

export const WEB_REMOTES: readonly WebRemote[] = remotes.map(({ name, folder }) => ({
  name,
  folder,
  variable: `REMOTE_${name.toUpperCase()}_URL`,
  defaultManifestUrl: `/remotes/${name}/mf-manifest.json`,
}));
