import { useEffect, useRef, useState } from 'react';
import { failureOf, positionBody, type GeolocationFailure } from '../consent/geolocation';
import { shareApi, ShareApiError } from '../consent/share-api';

// watchPosition may fire every second; the requester's map needs far less, and the server throttles per link.
export const MIN_INTERVAL_MS = 10_000;

/** Why live sharing ended before its time: the browser's refusal or lack of geolocation. */
export type LiveEndReason = 'unsupported' | 'denied';

/**
 * While `liveUntil` is in the future: watches the position and posts it at most every 10 seconds; ends by
 * itself at `liveUntil` (or when the server stops taking positions), and when the browser refuses or cannot give
 * positions at all, calling `onEnded` with the reason. A passing failure (no fix, a timeout) does not end it: the
 * returned `waiting` says why no position is going out, until the next one does.
 */
export function useLiveSharing(
  token: string | null,
  liveUntil: string | null,
  onEnded: (reason?: LiveEndReason) => void,
): { waiting: GeolocationFailure | null } {
  const ended = useRef(onEnded);
  // Tagged with the live window it belongs to: a new window starts with nothing to say.
  const [waiting, setWaiting] = useState<{ liveUntil: string; reason: GeolocationFailure } | null>(null);
  useEffect(() => {
    ended.current = onEnded;
  });

  useEffect(() => {
    if (!token || !liveUntil) return;
    const remaining = new Date(liveUntil).getTime() - Date.now();
    if (remaining <= 0) return;
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      ended.current('unsupported');
      return;
    }
    let lastSent = 0;
    let stopped = false;
    // Set once watchPosition returns; a watch that fails at once calls back before that.
    const watch: { id?: number } = {};
    const stop = (reason?: LiveEndReason) => {
      if (stopped) return;
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      clearTimeout(timer);
      setWaiting(null);
      ended.current(reason);
    };
    const timer = setTimeout(() => stop(), remaining);
    watch.id = navigator.geolocation.watchPosition(
      (position) => {
        if (stopped) return;
        setWaiting(null);
        if (Date.now() - lastSent < MIN_INTERVAL_MS) return;
        lastSent = Date.now();
        shareApi
          .position(token, positionBody(position))
          .then((answer) => {
            if (!answer.accepted) stop();
          })
          .catch((error: unknown) => {
            // 409: sharing was stopped (from another tab, say); other failures are retried with the next position.
            if (error instanceof ShareApiError && error.status === 409) stop();
          });
      },
      (error) => {
        if (stopped) return;
        const failure = failureOf(error);
        // Permission withdrawn: no position will come again. Anything else may pass (a tunnel, a timeout).
        if (failure === 'denied') stop('denied');
        else setWaiting({ liveUntil, reason: failure });
      },
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    if (stopped) navigator.geolocation.clearWatch(watch.id);
    return () => {
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      clearTimeout(timer);
    };
  }, [token, liveUntil]);

  return { waiting: waiting && waiting.liveUntil === liveUntil ? waiting.reason : null };
}
