import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * false while React hydrates prerendered HTML (and on the server), true afterwards. Parts of a page
 * that depend on the browser (a session cookie, the query string) render after hydration, so the
 * first client render matches the prerendered HTML exactly.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
