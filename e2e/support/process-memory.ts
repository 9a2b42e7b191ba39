// The resident memory of a Kabari server these tests or the bench started, read from Linux's /proc: the process
// running server/dist/server.js among the descendants of the process that was spawned (scripts/start.mjs starts the
// server as a child of its own).
import fs from 'node:fs';

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The pid of the process running server/dist/server.js: `pid` itself or one of its descendants; null if none. */
export function serverProcessOf(pid: number): number | null {
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    try {
      if (fs.readFileSync(`/proc/${current}/cmdline`, 'utf8').includes('server/dist/server.js')) return current;
    } catch {
      // Gone meanwhile.
    }
    queue.push(...childrenOf(current));
  }
  return null;
}

/** The process's resident memory in MB (VmRSS), or null where /proc cannot tell. */
export function residentMegabytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
