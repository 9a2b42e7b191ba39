import { retryableStatuses, retryDelayMs, shouldRetry } from './retry-policy';

describe('retry policy', () => {
  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET once on %i', (status) => {
    expect(shouldRetry('get', status, false)).toBe(true);
    expect(shouldRetry('get', status, true)).toBe(false);
  });

  it('lists exactly the statuses of a busy, timed-out or briefly failing server', () => {
    expect([...retryableStatuses].sort()).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
  });

  it.each([400, 401, 403, 404, 422, 501, 505])('does not retry %i', (status) => {
    expect(shouldRetry('get', status, false)).toBe(false);
  });

  it('retries other reads (HEAD, OPTIONS) but never a write', () => {
    expect(shouldRetry('HEAD', 503, false)).toBe(true);
    expect(shouldRetry('options', 503, false)).toBe(true);
    for (const method of ['post', 'put', 'patch', 'delete', 'POST'])
      expect(shouldRetry(method, 503, false)).toBe(false);
  });

  it('does not retry when no answer came', () => {
    expect(shouldRetry('get', undefined, false)).toBe(false);
  });

  it("waits the server's Retry-After, at most 5 s, else 300 ms", () => {
    expect(retryDelayMs('2')).toBe(2000);
    expect(retryDelayMs(1)).toBe(1000);
    expect(retryDelayMs('3600')).toBe(5000);
    expect(retryDelayMs(undefined)).toBe(300);
    expect(retryDelayMs('Wed, 21 Oct 2026 07:28:00 GMT')).toBe(300);
  });
});
