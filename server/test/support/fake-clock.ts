/** Every API jest's modern fake timers can fake. */
const FAKEABLE = [
  'Date',
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
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;
type FakeableApi = (typeof FAKEABLE)[number];

/** Jest's fake timers for the named APIs only: everything else (the database's waits, the event loop) keeps real time. */
export function fakeOnly(apis: FakeableApi[], options: { now?: Date; advanceTimers?: boolean } = {}): void {
  jest.useFakeTimers({ ...options, doNotFake: FAKEABLE.filter((api) => !apis.includes(api)) });
}

/**
 * Sets the tests' Date to today's 12:00 UTC and lets it run on from there, so a test about the UTC send day does
 * not see the day change under it when the suite happens to run at midnight. Only Date is faked.
 */
export function runClockFromMiddayUtc(): void {
  const midday = new Date();
  midday.setUTCHours(12, 0, 0, 0);
  fakeOnly(['Date'], { now: midday, advanceTimers: true });
}
