import { accessSync, constants, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where the tests' throwaway databases go: Linux's memory-backed /dev/shm where there is one, else the system's
 * temporary folder. Every server test copies a migrated PGlite cluster (some 40 MB) and writes to it; in memory
 * the copy took a fifth of the time it took on this machine's disk, and PGlite's fsyncs cost nothing.
 */
function scratchRoot(): string {
  try {
    const shm = '/dev/shm';
    if (statSync(shm).isDirectory()) {
      accessSync(shm, constants.W_OK);
      return shm;
    }
  } catch {
    // no /dev/shm here (macOS, Windows) or not writable
  }
  return tmpdir();
}

const root = scratchRoot();

/** A new empty folder for throwaway test data. */
export function scratchDir(prefix: string): string {
  return mkdtempSync(path.join(root, prefix));
}
