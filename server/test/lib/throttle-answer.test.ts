import { HttpError } from '../../src/lib/envelope';
import { sayCommon } from '../../src/lib/messages';
import { throwWhenLimited } from '../../src/lib/throttle-answer';

describe('throwWhenLimited', () => {
  it('lets a decision that is not limited through', () => {
    expect(() => throwWhenLimited({ limited: false }, sayCommon, 'tooManyAttempts')).not.toThrow();
  });

  it('answers a limited one with 429, the wait in words in both languages, and Retry-After', () => {
    let thrown: unknown;
    try {
      throwWhenLimited({ limited: true, retryAfterSeconds: 150 }, sayCommon, 'tooManyAttempts');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    const error = thrown as HttpError;
    expect(error.statusCode).toBe(429);
    expect(error.headers).toEqual({ 'retry-after': '150' });
    expect(error.messageIn('en')).toBe('Too many attempts. Please try again in 3 minutes.');
    expect(error.messageIn('id')).toBe('Terlalu banyak percobaan. Silakan coba lagi dalam 3 menit.');
  });
});
