/**
 * Ends the current task so the browser can paint or handle input before the rest runs. Long start-up
 * work split this way never blocks the main thread for long (Total Blocking Time).
 */
export function yieldToBrowser(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
