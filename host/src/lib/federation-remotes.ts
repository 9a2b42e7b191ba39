import { getInstance, loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { federationNames, remoteNames } from '@kabari/shared/config/federation-names';
import type { RemoteName, RuntimeConfig } from '@kabari/shared/config/runtime-config';
import { loadRuntimeConfig } from './runtime-config';

let configuredRemotes: RuntimeConfig['remotes'] | null = null;

function remoteDefinition(name: RemoteName, entry: string) {
  // The manifest URL may be relative to the page (same origin) or absolute (another origin or CDN).
  return { name: federationNames[name], entry: new URL(entry, window.location.href).toString() };
}

/** Registers the remotes the server's runtime configuration names; nothing is fetched yet. */
export function registerFederationRemotes(remotes: RuntimeConfig['remotes']): void {
  configuredRemotes = remotes;
  registerRemotes(remoteNames.map((name) => remoteDefinition(name, remotes[name])));
}

let configuring: Promise<void> | null = null;

/** Fetches the runtime configuration once; a failure is forgotten so the next attempt tries again. */
export function ensureRemotesConfigured(): Promise<void> {
  if (configuredRemotes) return Promise.resolve();
  configuring ??= loadRuntimeConfig()
    .then((config) => registerFederationRemotes(config.remotes))
    .catch((error: unknown) => {
      configuring = null;
      throw error;
    });
  return configuring;
}

/** Loads an exposed module, e.g. ('search', 'home-page'). Lazy: only when a route needs it. */
export async function loadRemoteModule<T>(remote: RemoteName, exposed: string): Promise<T> {
  await ensureRemotesConfigured();
  const loaded = await loadRemote<T>(`${federationNames[remote]}/${exposed}`);
  if (!loaded) throw new Error(`Remote module ${remote}/${exposed} is empty`);
  return loaded;
}

/** After a failed load, re-register the remote so the next attempt fetches its manifest afresh. */
export function resetRemote(remote: RemoteName): void {
  if (!configuredRemotes || !getInstance()) return;
  registerRemotes([remoteDefinition(remote, configuredRemotes[remote])], { force: true });
}
