import { useSyncExternalStore } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function mediaList(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(REDUCED_MOTION)
    : null;
}

/** Whether the person has asked their system for less motion (a vestibular disorder, or simply a preference). */
export function prefersReducedMotion(): boolean {
  return mediaList()?.matches ?? false;
}

function subscribe(onChange: () => void): () => void {
  const list = mediaList();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

/** prefersReducedMotion, followed while the page is open (the setting can change meanwhile). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
