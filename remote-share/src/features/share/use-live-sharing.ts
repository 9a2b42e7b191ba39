import { useEffect, useRef } from 'react';
import { positionBody } from '../consent/geolocation';
import { shareApi, ShareApiError } from '../consent/share-api';

// watchPosition may fire every second; the requester's map needs far less, and the server throttles per link.
const MIN_INTERVAL_MS = 10_000;

/**
 * While `liveUntil` is in the future: watches the position and posts it at most every 10 seconds; ends by
 * itself at `liveUntil` (or when the server stops taking positions) and then calls `onEnded`.
 */
export function useLiveSharing(token: string | null, liveUntil: string | null, onEnded: () => void): void {
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  });

  useEffect(() => {
    if (!token || !liveUntil) return;
    const remaining = new Date(liveUntil).getTime() - Date.now();
    if (remaining <= 0 || typeof navigator === 'undefined' || !navigator.geolocation) return;
    let lastSent = 0;
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      navigator.geolocation.clearWatch(watch);
      clearTimeout(timer);
      ended.current();
    };
    const watch = navigator.geolocation.watchPosition(
      (position) => {
        if (stopped || Date.now() - lastSent < MIN_INTERVAL_MS) return;
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
      () => undefined,
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    const timer = setTimeout(stop, remaining);
    return () => {
      stopped = true;
      navigator.geolocation.clearWatch(watch);
      clearTimeout(timer);
    };
  }, [token, liveUntil]);
}
