// How busy the machine is right now, so timing figures can be read with that in mind.
import os from 'node:os';

/**
 * Share of all cores busy over the next `ms` milliseconds (0–1), from the kernel's CPU times.
 * Unlike the load average it is not smeared over the last minute (e.g. by our own build).
 * @param {number} [ms]
 * @returns {Promise<number>}
 */
export async function cpuBusy(ms = 1000) {
  const before = os.cpus();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = os.cpus();
  let idle = 0;
  let total = 0;
  after.forEach((cpu, i) => {
    const was = before[i]?.times;
    if (!was) return;
    const times = cpu.times;
    idle += times.idle - was.idle;
    total +=
      times.user +
      times.nice +
      times.sys +
      times.idle +
      times.irq -
      (was.user + was.nice + was.sys + was.idle + was.irq);
  });
  return total > 0 ? Math.round((1 - idle / total) * 100) / 100 : 0;
}

/**
 * Waits until other work takes at most `threshold` of the CPUs (sampled each second), for at
 * most `maxMs`. Returns the last sample and how long it waited.
 * @param {{ maxMs: number, threshold?: number, signal?: AbortSignal }} options
 * @returns {Promise<{ busy: number, waitedMs: number }>}
 */
export async function waitForIdle({ maxMs, threshold = 0.25, signal }) {
  const started = Date.now();
  for (;;) {
    const busy = await cpuBusy(1000);
    const waitedMs = Date.now() - started;
    if (busy <= threshold || waitedMs >= maxMs || signal?.aborted) return { busy, waitedMs };
  }
}
