/** Statuses worth one more try: the server was busy, timed out or briefly failed. */
export const retryableStatuses: ReadonlySet<number> = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

// Reads only: asking again cannot do anything twice. Writes are never retried.
const getLikeMethods: ReadonlySet<string> = new Set(['get', 'head', 'options']);

export function shouldRetry(method: string | undefined, status: number | undefined, alreadyRetried: boolean): boolean {
  if (alreadyRetried || status === undefined) return false;
  return getLikeMethods.has((method ?? 'get').toLowerCase()) && retryableStatuses.has(status);
}

const defaultDelayMs = 300;
const maxDelayMs = 5_000;

/** How long to wait before the retry: the server's Retry-After (seconds) if given, at most 5 s. */
export function retryDelayMs(retryAfter: unknown): number {
  const seconds = typeof retryAfter === 'string' || typeof retryAfter === 'number' ? Number(retryAfter) : NaN;
  if (!Number.isFinite(seconds) || seconds < 0) return defaultDelayMs;
  return Math.min(seconds * 1000, maxDelayMs);
}
