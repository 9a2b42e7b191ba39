/**
 * Sets the tests' Date to today's 12:00 UTC and lets it run on from there, so a test about the UTC send day does
 * not see the day change under it when the suite happens to run at midnight. Only Date is faked: timers, the
 * event loop and the database keep real time.
 */
export function runClockFromMiddayUtc(): void {
  const midday = new Date();
  midday.setUTCHours(12, 0, 0, 0);
  jest.useFakeTimers({
    now: midday,
    advanceTimers: true,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setTimeout',
      'clearTimeout',
      'setInterval',
      'clearInterval',
    ],
  });
}
