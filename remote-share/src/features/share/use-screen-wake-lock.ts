import { useEffect, useState, useSyncExternalStore } from 'react';

export interface ScreenWakeLock {
  /** The browser can keep the screen on (known once the page runs in the browser: false while server-rendered). */
  supported: boolean;
  /** The screen is being kept on now. */
  held: boolean;
  /** The browser refused the last time it was asked (a battery saver, say). */
  refused: boolean;
}

const subscribeToNothing = () => () => undefined;
const browserCanKeepScreenOn = () => 'wakeLock' in navigator && Boolean(navigator.wakeLock);

/**
 * Keeps the screen on while `wanted`, with the Screen Wake Lock API: a phone whose screen turns off hides the page,
 * and a hidden page gets no position. The browser lets the lock go when the page is hidden; it is asked for again
 * each time the page is shown, and let go when `wanted` turns false.
 */
export function useScreenWakeLock(wanted: boolean): ScreenWakeLock {
  // False on the server and while hydrating, so the server's HTML and the first render in the browser agree.
  const supported = useSyncExternalStore(subscribeToNothing, browserCanKeepScreenOn, () => false);
  const [held, setHeld] = useState(false);
  const [refused, setRefused] = useState(false);

  useEffect(() => {
    if (!wanted || !supported) return;
    let current = true;
    let asking = false;
    let sentinel: WakeLockSentinel | null = null;

    const letGo = () => {
      const lock = sentinel;
      sentinel = null;
      setHeld(false);
      lock?.release().catch(() => undefined);
    };
    const acquire = () => {
      if (asking || sentinel || document.visibilityState !== 'visible') return;
      asking = true;
      navigator.wakeLock.request('screen').then(
        (lock) => {
          asking = false;
          sentinel = lock;
          // Hidden or no longer wanted while the browser answered.
          if (!current || document.visibilityState !== 'visible') {
            letGo();
            return;
          }
          setHeld(true);
          setRefused(false);
          // The browser's own release (the page hidden, the battery low).
          lock.addEventListener('release', () => {
            if (sentinel !== lock) return;
            sentinel = null;
            setHeld(false);
          });
        },
        () => {
          asking = false;
          if (current) setRefused(true);
        },
      );
    };
    const visibilityChanged = () => {
      if (document.visibilityState === 'visible') acquire();
      else letGo();
    };

    acquire();
    document.addEventListener('visibilitychange', visibilityChanged);
    return () => {
      current = false;
      document.removeEventListener('visibilitychange', visibilityChanged);
      letGo();
    };
  }, [wanted, supported]);

  return { supported, held: held && wanted, refused: refused && wanted };
}
