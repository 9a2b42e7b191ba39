import { constants, createHmac, createPrivateKey, privateDecrypt, type KeyObject } from 'node:crypto';

/**
 * Turns the browser's password ciphertext (jsencrypt: RSA PKCS#1 v1.5, base64) back into the password.
 *
 * Node refuses PKCS#1 v1.5 decryption since CVE-2023-46809 (a padding oracle). So OpenSSL does the RSA operation
 * alone (no padding: its blinded, constant-time private-key arithmetic), and `pkcs1Message` below removes the
 * padding. node-forge did the whole of it before, in JavaScript arithmetic: 41 ms of the event loop per password
 * sent, against under 1 ms now, and without OpenSSL's protection of the key against timing.
 *
 * It never fails: a ciphertext that does not decrypt (tampered, truncated, another key) yields a stand-in derived
 * from it by HMAC, which then simply does not match any password. A bad ciphertext is therefore answered exactly
 * like a wrong password, and a client learns nothing about the padding (no Bleichenbacher oracle).
 */
export class PasswordCipher {
  private readonly privateKey: KeyObject;
  private readonly modulusBytes: number;

  constructor(
    privateKeyPem: string,
    private readonly hmacSecret: Buffer,
  ) {
    this.privateKey = createPrivateKey(privateKeyPem);
    const modulusBits = this.privateKey.asymmetricKeyDetails?.modulusLength;
    if (this.privateKey.asymmetricKeyType !== 'rsa' || !modulusBits) throw new Error('The password key is not RSA');
    this.modulusBytes = Math.ceil(modulusBits / 8);
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
    let block: Buffer;
    try {
      block = privateDecrypt({ key: this.privateKey, padding: constants.RSA_NO_PADDING }, padded);
    } catch {
      // not below the modulus
      return null;
    }
    const message = pkcs1Message(block);
    return message && decodeUtf8AllowingSurrogates(message);
  }
}

/**
 * The message inside a decrypted RSAES-PKCS1-v1_5 block (RFC 8017, 7.2.2): 0x00, 0x02, at least eight non-zero
 * padding bytes, 0x00, then the message. Null when the block is not shaped so. It reads every byte whatever the
 * block holds and takes no branch on them, so how long it takes does not tell where a block went wrong.
 */
export function pkcs1Message(block: Buffer): Buffer | null {
  let bad = (block[0] as number) | ((block[1] as number) ^ 0x02);
  // The index of the first zero byte after the two leading ones; 0 while none is found.
  let separator = 0;
  for (let index = 2; index < block.length; index += 1) {
    // 1 when this byte is zero, else 0 (a byte is 0..255, so only zero goes below 0).
    const isZero = (((block[index] as number) - 1) >>> 31) & 1;
    // 1 while no separator has been found yet.
    const notFound = ((separator - 1) >>> 31) & 1;
    separator |= -(isZero & notFound) & index;
  }
  // Eight padding bytes put the separator at index 10 at the earliest; none found leaves it at 0.
  bad |= ((separator - 10) >>> 31) & 1;
  return bad === 0 ? block.subarray(separator + 1) : null;
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
