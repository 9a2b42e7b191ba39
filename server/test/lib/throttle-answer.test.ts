import { HttpError } from '../../src/lib/envelope';
import { defineMessages } from '../../src/lib/messages';
import { throwWhenLimited } from '../../src/lib/throttle-answer';

const say = defineMessages(
  { tooMany: 'Too many tries. Please try again in {wait}.' },
  { tooMany: 'Terlalu banyak percobaan. Silakan coba lagi dalam {wait}.' },
);

describe('throwWhenLimited', () => {
  it('lets a decision that is not limited through', () => {
    expect(() => throwWhenLimited({ limited: false }, say, 'tooMany')).not.toThrow();
  });

  it('answers a limited one with 429, the wait in words in both languages, and Retry-After', () => {
    let thrown: unknown;
    try {
      throwWhenLimited({ limited: true, retryAfterSeconds: 150 }, say, 'tooMany');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    const error = thrown as HttpError;
    expect(error.statusCode).toBe(429);
    expect(error.headers).toEqual({ 'retry-after': '150' });
    expect(error.messageIn('en')).toBe('Too many tries. Please try again in 3 minutes.');
    expect(error.messageIn('id')).toBe('Terlalu banyak percobaan. Silakan coba lagi dalam 3 menit.');
  });
});
