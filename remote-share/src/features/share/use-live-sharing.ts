import { useEffect, useRef, useState } from 'react';
import { failureOf, positionBody, type GeolocationFailure } from '../../lib/geolocation';
import { isApiError } from '@kabari/shared/api/api-error';
import { LIVE_POSITION_EVERY_MS } from '@kabari/shared/requests/live-sharing';
import { shareApi } from '../../lib/share-api';

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

// What the watch asks of the browser, and a position taken when the page is shown again: a fix the browser already
// has is good enough if it is no older than the time between two sends.
const POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, maximumAge: LIVE_POSITION_EVERY_MS };

/**
 * While `liveUntil` is in the future: watches the position and posts it at most every LIVE_POSITION_EVERY_MS; ends by
 * itself at `liveUntil` (or when the server stops taking positions). It ends early when the browser refuses or
 * has no geolocation, or gives no position for a minute after an error: then it tells the server to end the live
 * window (the requester's live badge goes off) and calls `onEnded` with the reason. Until then, the returned
 * `waiting` says why no position is going out. A browser gives no position to a hidden page (the phone locked, another
 * app in front): when the page is shown again it asks the server whether its window is still open, as the minute's
 * call does, and sends a position at once.
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
    const end = new Date(liveUntil).getTime();
    const remaining = end - Date.now();
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
    // Set when the page is shown again: the server's answer whether its window is still open. The first position
    // after that goes at once, whether the page's own request or the watch gives it first: the browser answers the
    // request from its last fix only if that is younger than maximumAge, and an older one waits for the device's next
    // fix, which the watch gets too.
    let shownAgain: { at: number; stillLive: Promise<boolean> } | undefined;
    let stopped = false;
    // Set once watchPosition returns; a watch that fails at once calls back before that.
    const watch: { id?: number } = {};
    let lastFailure: GeolocationFailure | null = null;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const stop = (reason?: LiveEndReason) => {
      if (stopped) return;
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      document.removeEventListener('visibilitychange', shown);
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
    const send = (position: GeolocationPosition) => {
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
    };
    const found = () => {
      setWaiting(null);
      lastFailure = null;
      clearTimeout(grace);
      grace = undefined;
    };
    // Shown again: the requester has had nothing since the page was hidden, so a position goes now, not at the
    // watch's next one. The server is asked first: if it ended the window meanwhile, the page says so instead.
    const shown = () => {
      if (stopped || document.visibilityState !== 'visible') return;
      // Asleep past its end: it ended at its time, whichever of this and the end's timer runs first.
      if (Date.now() >= end) {
        stop();
        return;
      }
      const stillLive = shareApi.liveHeard(token, liveUntil).then(
        (answer) => {
          if (answer.liveUntil === null) stop('silent');
          return answer.liveUntil !== null;
        },
        // Unreachable now: the position is tried all the same, as the watch's would be.
        () => true,
      );
      shownAgain = { at: Date.now(), stillLive };
      navigator.geolocation.getCurrentPosition(
        (position) => {
          if (stopped) return;
          found();
          sendOwed(position);
        },
        // The watch reports what keeps positions from coming; this one try adds nothing to it.
        () => undefined,
        POSITION_OPTIONS,
      );
    };
    // The first position since the page was shown, once the server has said the window is still open; the other
    // source's, if it came first, has been sent already.
    const sendOwed = (position: GeolocationPosition) => {
      const owed = shownAgain;
      if (!owed) return;
      void owed.stillLive.then((live) => {
        if (stopped || !live || lastSent >= owed.at) return;
        send(position);
      });
    };
    document.addEventListener('visibilitychange', shown);
    watch.id = navigator.geolocation.watchPosition(
      (position) => {
        if (stopped) return;
        found();
        if (shownAgain && lastSent < shownAgain.at) sendOwed(position);
        else if (Date.now() - lastSent >= LIVE_POSITION_EVERY_MS) send(position);
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
      POSITION_OPTIONS,
    );
    if (stopped) navigator.geolocation.clearWatch(watch.id);
    return () => {
      stopped = true;
      if (watch.id !== undefined) navigator.geolocation.clearWatch(watch.id);
      document.removeEventListener('visibilitychange', shown);
      clearTimeout(timer);
      clearTimeout(grace);
      clearInterval(heard);
    };
  }, [token, liveUntil]);

  return { waiting: waiting && waiting.liveUntil === liveUntil ? waiting.reason : null };
}
