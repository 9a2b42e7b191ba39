import { createHmac } from 'node:crypto';
import forge from 'node-forge';

/**
 * Turns the browser's password ciphertext (jsencrypt: RSA PKCS#1 v1.5, base64) back into the password.
 *
 * Node refuses PKCS#1 v1.5 decryption since CVE-2023-46809, so node-forge does it. It never fails: a
 * ciphertext that does not decrypt (tampered, truncated, another key) yields a stand-in derived from it by
 * HMAC, which then simply does not match any password. A bad ciphertext is therefore answered exactly like a
 * wrong password, and a client learns nothing about the padding (no Bleichenbacher oracle).
 */
export class PasswordCipher {
  private readonly privateKey: forge.pki.rsa.PrivateKey;
  private readonly modulusBytes: number;

  constructor(
    privateKeyPem: string,
    private readonly hmacSecret: Buffer,
  ) {
    this.privateKey = forge.pki.privateKeyFromPem(privateKeyPem);
    this.modulusBytes = Math.ceil(this.privateKey.n.bitLength() / 8);
  }

  decrypt(ciphertextBase64: string): string {
    const decrypted = this.tryDecrypt(ciphertextBase64);
    if (decrypted !== null) return decrypted;
    return createHmac('sha256', this.hmacSecret)
      .update('undecryptable-password:')
      .update(ciphertextBase64)
      .digest('hex');
  }

  private tryDecrypt(ciphertextBase64: string): string | null {
    const compact = ciphertextBase64.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
    const bytes = Buffer.from(compact, 'base64');
    if (bytes.length === 0 || bytes.length > this.modulusBytes) return null;
    // Some RSA clients drop leading zero bytes of the ciphertext: put them back.
    const padded = Buffer.concat([Buffer.alloc(this.modulusBytes - bytes.length), bytes]);
    try {
      const plaintext = this.privateKey.decrypt(padded.toString('binary'), 'RSAES-PKCS1-V1_5');
      return decodeUtf8AllowingSurrogates(Buffer.from(plaintext, 'binary'));
    } catch {
      return null;
    }
  }
}

/**
 * UTF-8, except that a surrogate may be encoded on its own in three bytes: jsencrypt encodes each UTF-16 code
 * unit separately, so an emoji arrives as two such halves. Null for anything else that is not UTF-8.
 */
export function decodeUtf8AllowingSurrogates(bytes: Buffer): string | null {
  let text = '';
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    let codePoint: number;
    let length: number;
    if (lead < 0x80) [codePoint, length] = [lead, 1];
    else if (lead >= 0xc2 && lead < 0xe0) [codePoint, length] = [lead & 0x1f, 2];
    else if (lead >= 0xe0 && lead < 0xf0) [codePoint, length] = [lead & 0x0f, 3];
    else if (lead >= 0xf0 && lead < 0xf5) [codePoint, length] = [lead & 0x07, 4];
    else return null;
    if (index + length > bytes.length) return null;
    for (let offset = 1; offset < length; offset += 1) {
      const continuation = bytes[index + offset] as number;
      if ((continuation & 0xc0) !== 0x80) return null;
      codePoint = (codePoint << 6) | (continuation & 0x3f);
    }
    if ((length === 3 && codePoint < 0x800) || (length === 4 && (codePoint < 0x10000 || codePoint > 0x10ffff))) {
      return null;
    }
    text += String.fromCharCode(
      ...(codePoint > 0xffff
        ? [0xd800 + ((codePoint - 0x10000) >> 10), 0xdc00 + ((codePoint - 0x10000) & 0x3ff)]
        : [codePoint]),
    );
    index += length;
  }
  return text;
}
