import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {
  constructor(dataDir: string, staleMs: number) {
    super(
      `DATA_DIR ${dataDir} is in use by another Kabari server process (lock ${lockPath(dataDir)}). ` +
        'Stop that process, or give this one its own DATA_DIR (or a DATABASE_URL). ' +
        `A lock left behind by a killed process expires ${staleMs / 1000} s after it died.`,
    );
    this.name = 'DataDirLockedError';
  }
}

function lockPath(dataDir: string): string {
  return path.join(dataDir, 'server.lock');
}

/**
 * Takes the exclusive lock on DATA_DIR: PGlite is one process's database, and a second process opening
 * the same folder would corrupt it. The lock refreshes its mtime while held, so a crashed holder's lock
 * goes stale after `staleMs` and the next start takes it over. A start right after a crash (a restart by
 * systemd or by hand) finds the lock still fresh: it waits up to `waitMs` for it to go stale, saying so
 * (`onWait`), instead of failing; a lock still refreshed by a live server all that time is refused.
 */
export async function lockDataDir(
  dataDir: string,
  handlers: { onCompromised: (error: Error) => void; onWait: (message: string) => void },
  { staleMs = 10_000, waitMs = 12_000 } = {},
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const attempt = (retries: number) =>
    lockfile.lock(dataDir, {
      lockfilePath: lockPath(dataDir),
      stale: staleMs,
      retries: { retries, factor: 1, minTimeout: 1000, maxTimeout: 1000 },
      onCompromised: handlers.onCompromised,
    });
  try {
    return await attempt(0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
  }
  const retries = Math.ceil(waitMs / 1000);
  if (retries > 0) {
    handlers.onWait(
      `DATA_DIR ${dataDir} is locked: waiting up to ${retries} s for the lock of a server that stopped to expire`,
    );
  }
  try {
    return await attempt(retries);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir, staleMs);
    throw error;
  }
}
