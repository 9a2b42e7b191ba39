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
 * goes stale after `staleMs` and the next start takes it over.
 */
export async function lockDataDir(
  dataDir: string,
  onCompromised: (error: Error) => void,
  staleMs = 10_000,
): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: lockPath(dataDir),
      stale: staleMs,
      retries: 0,
      onCompromised,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dataDir, staleMs);
    throw error;
  }
}
