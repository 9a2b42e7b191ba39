import { createECDH } from 'node:crypto';

// The key pair push messages are signed with (VAPID, RFC 8292): P-256, both halves base64url, as browsers and the
// web-push package take them.

/** The public half (the uncompressed point, 65 bytes) of a private key (32 bytes), or undefined if it is not one. */
export function vapidPublicKeyOf(privateKey: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(privateKey)) return undefined;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url');
  } catch {
    // Zero, or not below the curve's order.
    return undefined;
  }
}

/** A new key pair. */
export function newVapidKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: fullLengthPrivateKey(ecdh.getPrivateKey()),
  };
}

/**
 * The private key as its 32 bytes: node drops a private key's leading zero bytes (once in 256 keys), and web-push
 * refuses a key of another length, so such a key is padded back.
 */
export function fullLengthPrivateKey(key: Buffer): string {
  return Buffer.concat([Buffer.alloc(Math.max(0, 32 - key.length)), key]).toString('base64url');
}
