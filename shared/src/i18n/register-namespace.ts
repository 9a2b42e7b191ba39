import i18n from 'i18next';
import type { Locale } from './locale';

export type NamespaceResources = Record<Locale, Record<string, unknown>>;

// Bundles registered before i18next is initialised wait here; initI18n adds them.
const pending = new Map<string, NamespaceResources>();

function addBundles(namespace: string, resources: NamespaceResources): void {
  for (const [locale, bundle] of Object.entries(resources)) {
    if (!i18n.hasResourceBundle(locale, namespace)) {
      i18n.addResourceBundle(locale, namespace, bundle, true, false);
    }
  }
}

/**
 * Each app owns its namespace; the host owns the i18next instance (a shared singleton).
 * A remote adds its bundles when it loads, so the host never imports a remote's texts.
 */
export function registerNamespace(namespace: string, resources: NamespaceResources): void {
  if (i18n.isInitialized) addBundles(namespace, resources);
  else pending.set(namespace, resources);
}

export function addPendingNamespaces(): void {
  for (const [namespace, resources] of pending) addBundles(namespace, resources);
  pending.clear();
}
