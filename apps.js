// The web apps, written once. The build, dev, test, bench and lint scripts, the jest projects and the end-to-end
// setup read them from here (a test checks that the workspaces and the browser type check list the same folders).
// `name`: the remote's name in the runtime configuration (REMOTE_<NAME>_URL); `federationName`: its Module
// Federation container; `lightFederationName`: its light container's, when it builds one (webpack's own Module
// Federation, which the host's recipient entry loads); `port`: its standalone dev server.

const host = { folder: 'host', federationName: 'kabari_host', port: 3000 };

const remotes = [
  { name: 'search', folder: 'remote-search', federationName: 'kabari_search', port: 3001 },
  { name: 'dashboard', folder: 'remote-dashboard', federationName: 'kabari_dashboard', port: 3002 },
  { name: 'billing', folder: 'remote-billing', federationName: 'kabari_billing', port: 3003 },
  {
    name: 'share',
    folder: 'remote-share',
    federationName: 'kabari_share',
    lightFederationName: 'kabari_share_light',
    port: 3004,
  },
  { name: 'operator', folder: 'remote-operator', federationName: 'kabari_operator', port: 3005 },
];

/** Every web app's folder, the remotes first: the build makes them in this order. */
const webApps = [...remotes.map((remote) => remote.folder), host.folder];

/** The app whose folder this is (its webpack config reads its container name and port here). */
function appIn(folder) {
  const app = [host, ...remotes].find((candidate) => candidate.folder === folder);
  if (!app) throw new Error(`${folder} is not one of the apps listed in apps.js`);
  return app;
}

/** Each remote's container by its name: what the browser code is built with (`__KABARI_FEDERATION_NAMES__`). */
const federationNames = Object.fromEntries(remotes.map((remote) => [remote.name, remote.federationName]));

/** The light containers by their remote's name (`__KABARI_LIGHT_FEDERATION_NAMES__` in the browser code). */
const lightFederationNames = Object.fromEntries(
  remotes.filter((remote) => remote.lightFederationName).map((remote) => [remote.name, remote.lightFederationName]),
);

module.exports = { host, remotes, webApps, appIn, federationNames, lightFederationNames };
