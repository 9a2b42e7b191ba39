import { createECDH } from 'node:crypto';
import { fullLengthPrivateKey, newVapidKeys, vapidPublicKeyOf } from '../../src/lib/vapid-key';

describe('VAPID keys', () => {
  it('writes a private key whose leading byte is zero as its 32 bytes, the same key', () => {
    // One key in 256 starts with a zero byte, which node leaves out of getPrivateKey().
    let ecdh;
    let raw;
    do {
      ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      raw = ecdh.getPrivateKey();
    } while (raw.length === 32);
    const written = fullLengthPrivateKey(raw);
    expect(Buffer.from(written, 'base64url')).toHaveLength(32);
    expect(vapidPublicKeyOf(written)).toBe(ecdh.getPublicKey().toString('base64url'));
  });

  it('makes pairs web-push accepts, whose public half is the private one’s', () => {
    for (let i = 0; i < 50; i += 1) {
      const keys = newVapidKeys();
      expect(keys.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(vapidPublicKeyOf(keys.privateKey)).toBe(keys.publicKey);
    }
  });
});
