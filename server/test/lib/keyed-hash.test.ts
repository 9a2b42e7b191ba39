import { createHmac } from 'node:crypto';
import { keyedHash } from '../../src/lib/keyed-hash';

describe('keyedHash', () => {
  const secret = Buffer.from('a secret of at least thirty-two characters', 'utf8');

  it('is stable for one secret, purpose and value', () => {
    expect(keyedHash(secret, 'share-ip', '203.0.113.9')).toBe(keyedHash(secret, 'share-ip', '203.0.113.9'));
  });

  it('is the HMAC-SHA256 of purpose:value, base64url, 32 characters (the share throttle keys already stored)', () => {
    const expected = createHmac('sha256', secret).update('share-ip:203.0.113.9').digest('base64url').slice(0, 32);
    expect(keyedHash(secret, 'share-ip', '203.0.113.9')).toBe(expected);
  });

  it('differs by purpose and by secret, and does not contain the value', () => {
    const key = keyedHash(secret, 'login-ip', '203.0.113.9');
    expect(key).not.toBe(keyedHash(secret, 'share-ip', '203.0.113.9'));
    expect(key).not.toBe(
      keyedHash(Buffer.from('another secret, also thirty-two characters'), 'login-ip', '203.0.113.9'),
    );
    expect(key).not.toContain('203.0.113.9');
  });
});
