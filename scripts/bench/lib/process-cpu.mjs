// The CPU time a process has used, read from Linux's /proc: what an answer costs the server whatever else the
// machine is doing, and whether a server was busy at all.
import fs from 'node:fs';

/**
 * The CPU time the process has used so far, all its threads, user and system, in seconds; null where /proc cannot
 * tell. /proc counts it in clock ticks of 1/100 s, the unit Linux gives user space on every architecture it runs on.
 * @param {number} pid
 * @returns {number | null}
 */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command's name (in parentheses, and it may hold spaces): utime and stime are the 14th and
    // 15th of the whole line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
