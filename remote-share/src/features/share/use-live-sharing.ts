import { useEffect, useRef, useState } from 'react';
import { failureOf, positionBody, type GeolocationFailure } from '../../lib/geolocation';
import { isApiError } from '@kabari/shared/api/api-error';
import { shareApi } from '../../lib/share-api';

// watchPosition may fire every second; the requester's map needs far less, and the server throttles per link.
export const MIN_INTERVAL_MS = 10_000;

/**
 * Why live sharing ended before its time: the browser refused, has no geolocation, or found no position; or
 * `silent`: the server ended it because this page was not heard from (the phone slept past the limit).
 */
export type LiveEndReason = GeolocationFailure | 'silent';

/** How often the page tells the server it is still open: a window not heard from for 2 minutes ends. */
export const LIVE_HEARD_EVERY_MS = 60_000;

// A position that does not come back within this long (location turned off, say) ends live sharing: the
// requester must not see "live" while nothing is sent. Shorter gaps (a tunnel) only say why nothing goes out.
export const NO_POSITION_GRACE_MS = 60_000;

/**
 * While `liveUntil` is in the future: watches the position and posts it at most every 10 seconds; ends by
 * itself at `liveUntil` (or when the server stops taking positions). It ends early when the browser refuses or
 * has no geolocation, or gives no position for a minute after an error: then it tells the server to end the live
 * window (the requester's live badge goes off) and calls `onEnded` with the reason. Until then, the returned
 * `waiting` says why no position is going out.
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
    // Consent stays; only this live window ends. If the call fails, the window ends at its time instead (or when the
    // server stops hearing from this page).
    const endEarly = (reason: LiveEndReason) => {
      if (reason !== 'silent') shareApi.endLive(token, liveUntil, reason).catch(() => undefined);
      ended.current(reason);
    };
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      endEarly('unsupported');
      return;
    }
    let lastSent = 0;
    let stopped = false;
    // Set once watchPosition returns; a watch that fails at once calls back before that.
    const watch: { id?: number } = {};
    let lastFailure: GeolocationFailure | null = null;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const stop = (reason?: LiveEndReason) => {
      if (stopped) return;
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      clearTimeout(timer);
      clearTimeout(grace);
      clearInterval(heard);
      setWaiting(null);
      if (reason) endEarly(reason);
      else ended.current(reason);
    };
    const timer = setTimeout(() => stop(), remaining);
    // Still here: said once a minute. Timers stop while the phone sleeps; a server that stopped hearing from the page
    // meanwhile has ended the window, and the page says so when it wakes.
    const heard = setInterval(() => {
      shareApi.liveHeard(token, liveUntil).then(
        (answer) => {
          if (answer.liveUntil === null) stop('silent');
        },
        () => undefined,
      );
    }, LIVE_HEARD_EVERY_MS);
    watch.id = navigator.geolocation.watchPosition(
      (position) => {
        if (stopped) return;
        setWaiting(null);
        lastFailure = null;
        clearTimeout(grace);
        grace = undefined;
        if (Date.now() - lastSent < MIN_INTERVAL_MS) return;
        lastSent = Date.now();
        shareApi
          .position(token, positionBody(position))
          .then((answer) => {
            if (!answer.accepted) stop();
          })
          .catch((error: unknown) => {
            // 409: sharing was stopped (from another tab, say); other failures are retried with the next position.
            if (isApiError(error) && error.status === 409) stop();
          });
      },
      (error) => {
        if (stopped) return;
        const failure = failureOf(error);
        // Permission withdrawn: no position will come again. Anything else may pass (a tunnel, a timeout).
        if (failure === 'denied') {
          stop('denied');
          return;
        }
        lastFailure = failure;
        setWaiting({ liveUntil, reason: failure });
        // Counted from the first error since the last position: repeated errors do not put the end off.
        grace ??= setTimeout(() => stop(lastFailure ?? failure), NO_POSITION_GRACE_MS);
      },
      { enableHighAccuracy: true, maximumAge: 10_000 },
    );
    if (stopped) navigator.geolocation.clearWatch(watch.id);
    return () => {
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      clearTimeout(timer);
      clearTimeout(grace);
      clearInterval(heard);
    };
  }, [token, liveUntil]);

  return { waiting: waiting && waiting.liveUntil === liveUntil ? waiting.reason : null };
}
