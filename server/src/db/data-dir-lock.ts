import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
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

/** Beside the lock, who holds it: `{pid, host}`, written once the lock is taken, removed before it is let go. */
function ownerPath(dataDir: string): string {
  return path.join(dataDir, 'server.lock.owner');
}

// The folders this process holds the lock of: its own PID in an owner record is a previous life (a container
// restarted with the same PID) only when it is not one of these.
const heldHere = new Set<string>();

async function recordOwner(dataDir: string): Promise<void> {
  const record = `${ownerPath(dataDir)}.${process.pid}`;
  await writeFile(record, JSON.stringify({ pid: process.pid, host: hostname() }));
  await rename(record, ownerPath(dataDir));
}

/**
 * The PID of the lock's holder, as recorded beside it, when that is a process of this machine that no longer runs:
 * a server killed a moment ago, whose lock is still fresh. Null when not known to have ended (no record, another
 * machine, a live process).
 */
async function holderEnded(dataDir: string): Promise<number | null> {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(await readFile(ownerPath(dataDir), 'utf8')) as typeof owner;
  } catch {
    return null;
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number' || !Number.isInteger(owner.pid)) return null;
  if (owner.pid === process.pid) return heldHere.has(dataDir) ? null : owner.pid;
  try {
    process.kill(owner.pid, 0);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? owner.pid : null;
  }
}

/**
 * Takes the exclusive lock on DATA_DIR: PGlite is one process's database, and a second process opening
 * the same folder would corrupt it. The lock refreshes its mtime while held, so a crashed holder's lock
 * goes stale after `staleMs` and the next start takes it over. A start right after a crash (a restart by
 * systemd or by hand) finds the lock still fresh: when the holder recorded beside it is a process of this
 * machine that has ended, the lock is taken over at once; otherwise (another machine, a record missing) it
 * waits up to `waitMs` for the lock to go stale, saying so (`onWait`), instead of failing; a lock still
 * refreshed by a live server all that time is refused. Like any stale-lock takeover, two servers started
 * at the same instant on one folder right after a crash could both pass: one folder, one server.
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
  const held = async (release: () => Promise<void>) => {
    heldHere.add(dataDir);
    await recordOwner(dataDir);
    return async () => {
      heldHere.delete(dataDir);
      await rm(ownerPath(dataDir), { force: true });
      await release();
    };
  };
  const isLocked = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ELOCKED';
  try {
    return await held(await attempt(0));
  } catch (error) {
    if (!isLocked(error)) throw error;
  }
  // Held by a process of this machine that has ended (killed a moment ago): its lock is taken over at once.
  const ended = await holderEnded(dataDir);
  if (ended !== null) {
    handlers.onWait(`DATA_DIR ${dataDir} was locked by process ${ended}, which has ended: taking the lock over`);
    await rm(lockPath(dataDir), { recursive: true, force: true });
    try {
      return await held(await attempt(0));
    } catch (error) {
      if (!isLocked(error)) throw error;
    }
  }
  const retries = Math.ceil(waitMs / 1000);
  if (retries > 0) {
    handlers.onWait(
      `DATA_DIR ${dataDir} is locked: waiting up to ${retries} s for the lock of a server that stopped to expire`,
    );
  }
  try {
    return await held(await attempt(retries));
  } catch (error) {
    if (isLocked(error)) throw new DataDirLockedError(dataDir, staleMs);
    throw error;
  }
}
