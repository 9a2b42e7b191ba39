import { HttpError } from './envelope';
import type { LocalizedText, MessageParams } from './messages';

/** A throttle's decision (auth/throttle.ts gives one for each attempt counted). */
type ThrottleDecision = { limited: false } | { limited: true; retryAfterSeconds: number };

/**
 * A throttle's decision as the client gets it: nothing while it is not limited; otherwise a 429 whose message (the
 * catalogue's `key`, in the caller's language) says how long to wait, and Retry-After in seconds.
 */
export function throwWhenLimited<K extends string>(
  decision: ThrottleDecision,
  say: (key: K, params: MessageParams) => LocalizedText,
  key: K,
): void {
  if (!decision.limited) return;
  const wait = decision.retryAfterSeconds;
  throw new HttpError(429, say(key, { wait }), { 'retry-after': String(wait) });
}
