import { useLayoutEffect, useRef } from 'react';
import { useLocation } from '@kabari/shared/routing/router';
import { findAppRoute } from './route-table';

/** Navigation state that keeps the scroll position (e.g. closing a dialog over the dashboard). */
export const keepScrollState = { keepScroll: true } as const;

function asksToKeepScroll(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { keepScroll?: unknown }).keepScroll === true;
}

/** The element id a hash names; a malformed escape is taken as written. */
function hashTarget(hash: string): string {
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return hash.slice(1);
  }
}

/**
 * On navigation the view scrolls to the top, or to the hash target, unless the route (or the
 * navigation) says otherwise. The first page of a visit is left to the browser.
 */
export function useScrollOnNavigation(): void {
  const { pathname, hash, state } = useLocation();
  const first = useRef(true);
  useLayoutEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (asksToKeepScroll(state) || findAppRoute(pathname)?.keepScroll) return;
    const target = hash ? document.getElementById(hashTarget(hash)) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    // Only a new page or a new hash moves the view; a changed query string does not.
  }, [pathname, hash]); // eslint-disable-line react-hooks/exhaustive-deps
}
