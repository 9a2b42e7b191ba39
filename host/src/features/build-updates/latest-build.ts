// A periodic fetch of the latest-build file notices a new deployment of the host.
// host/build-info-plugin.js writes /latest-build.json with the build's hash at build time; the running
// code knows its own as __webpack_hash__. The file is served no-cache, so each fetch asks the server.

declare const __webpack_hash__: string | undefined;

export const latestBuildUrl = '/latest-build.json';
export const buildCheckIntervalMs = 5 * 60_000;
/** A reload within this long of the previous one is refused, so a stale cache cannot loop. */
export const reloadGuardMs = 10_000;
const reloadedAtKey = 'kabari-reloaded-at';

/** The build this page runs; null outside a webpack build (tests). */
export function runningBuildId(): string | null {
  return typeof __webpack_hash__ === 'string' ? __webpack_hash__ : null;
}

export async function fetchLatestBuildId(fetchImpl: typeof fetch = fetch): Promise<string | null> {
  const response = await fetchImpl(latestBuildUrl, { cache: 'no-store', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${latestBuildUrl}: HTTP ${response.status}`);
  const body: unknown = await response.json();
  const buildId = typeof body === 'object' && body !== null ? (body as { buildId?: unknown }).buildId : undefined;
  return typeof buildId === 'string' && buildId ? buildId : null;
}

/** Reloads the page for the new build, unless it was reloaded less than 10 s ago. */
export function reloadForNewBuild(
  storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage,
  now: number = Date.now(),
  reload: () => void = () => window.location.reload(),
): boolean {
  const last = Number(storage.getItem(reloadedAtKey));
  if (Number.isFinite(last) && last > 0 && now - last < reloadGuardMs) {
    console.warn('[kabari] reload skipped: the page was reloaded less than 10 s ago');
    return false;
  }
  storage.setItem(reloadedAtKey, String(now));
  reload();
  return true;
}

export interface BuildWatch {
  currentBuildId: string;
  fetchLatest: () => Promise<string | null>;
  onNewBuild: () => void;
  intervalMs?: number;
}

/**
 * Checks now, then every interval and whenever the tab becomes visible again, until a new build is
 * seen (then once: the offer stays on screen). A failed check is only logged. Returns a stop function.
 */
export function watchForNewBuild({
  currentBuildId,
  fetchLatest,
  onNewBuild,
  intervalMs = buildCheckIntervalMs,
}: BuildWatch): () => void {
  let stopped = false;
  const check = async () => {
    if (stopped) return;
    try {
      const latest = await fetchLatest();
      if (!stopped && latest && latest !== currentBuildId) {
        stop();
        onNewBuild();
      }
    } catch (error) {
      console.warn('[kabari] latest build check failed', error);
    }
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') void check();
  };
  const timer = setInterval(() => void check(), intervalMs);
  document.addEventListener('visibilitychange', onVisible);
  function stop() {
    stopped = true;
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisible);
  }
  void check();
  return stop;
}
