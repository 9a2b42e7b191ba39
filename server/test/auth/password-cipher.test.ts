import { constants, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { decodeUtf8AllowingSurrogates, PasswordCipher, pkcs1Message } from '../../src/auth/password-cipher';
import { encryptPassword, tamper } from '../support/jsencrypt';

describe('PasswordCipher', () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  });
  const cipher = new PasswordCipher(privateKey, randomBytes(32));

  it("decrypts what the browser's jsencrypt produced, Unicode included", () => {
    expect(cipher.decrypt(encryptPassword(publicKey, 'correct horse'))).toBe('correct horse');
    expect(cipher.decrypt(encryptPassword(publicKey, 'kata sandi ñ 🔑'))).toBe('kata sandi ñ 🔑');
  });

  it('restores leading zero bytes some clients drop from the ciphertext', () => {
    // Find a ciphertext that starts with a zero byte, and send it without that byte.
    for (let attempt = 0; attempt < 5000; attempt += 1) {
      const bytes = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from('zero-lead'));
      if (bytes[0] !== 0) continue;
      expect(cipher.decrypt(bytes.subarray(1).toString('base64'))).toBe('zero-lead');
      return;
    }
    throw new Error('no ciphertext with a leading zero byte in 5000 tries');
  });

  it('turns anything that does not decrypt into a stable stand-in, never an error', () => {
    const good = encryptPassword(publicKey, 'correct horse');
    const inputs = [
      tamper(good),
      tamper(good, 200),
      'not base64 at all!',
      '',
      'AAAA',
      Buffer.alloc(300).toString('base64'),
      // as long as the key, but not below its modulus
      Buffer.alloc(256, 0xff).toString('base64'),
    ];
    for (const input of inputs) {
      const standIn = cipher.decrypt(input);
      expect(standIn).toMatch(/^[0-9a-f]{64}$/);
      expect(cipher.decrypt(input)).toBe(standIn);
    }
    expect(cipher.decrypt(tamper(good))).not.toBe(cipher.decrypt(tamper(good, 200)));
  });

  it('takes the message out of a well-formed PKCS#1 v1.5 block only', () => {
    const block = (...parts: number[][]) => Buffer.from(parts.flat());
    const padding = (length: number) => Array.from({ length }, (_, index) => (index % 255) + 1);
    const message = [0x6b, 0x61, 0x74, 0x61];
    expect(pkcs1Message(block([0, 2], padding(8), [0], message))).toEqual(Buffer.from(message));
    expect(pkcs1Message(block([0, 2], padding(200), [0], message))).toEqual(Buffer.from(message));
    // a zero inside the message is part of it: only the first zero separates
    expect(pkcs1Message(block([0, 2], padding(8), [0], [1, 0, 2]))).toEqual(Buffer.from([1, 0, 2]));
    expect(pkcs1Message(block([0, 2], padding(8), [0]))).toEqual(Buffer.alloc(0));
    // seven padding bytes are too few
    expect(pkcs1Message(block([0, 2], padding(7), [0], message))).toBeNull();
    // the wrong block type (1 is for signatures), or a first byte that is not zero
    expect(pkcs1Message(block([0, 1], padding(8), [0], message))).toBeNull();
    expect(pkcs1Message(block([1, 2], padding(8), [0], message))).toBeNull();
    // no separator at all
    expect(pkcs1Message(block([0, 2], padding(20)))).toBeNull();
  });

  it('decodes UTF-8, and surrogate halves encoded one by one, but nothing else', () => {
    expect(decodeUtf8AllowingSurrogates(Buffer.from('kata sandi ñ 🔑', 'utf8'))).toBe('kata sandi ñ 🔑');
    // 🔑 is U+1F511: the UTF-16 halves D83D DD11, each as three bytes (what jsencrypt sends).
    expect(decodeUtf8AllowingSurrogates(Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xb4, 0x91]))).toBe('🔑');
    expect(decodeUtf8AllowingSurrogates(Buffer.from([0xc0, 0x80]))).toBeNull();
    expect(decodeUtf8AllowingSurrogates(Buffer.from([0xe2, 0x82]))).toBeNull();
    expect(decodeUtf8AllowingSurrogates(Buffer.from([0xff]))).toBeNull();
  });

  it('does not decrypt under another key', () => {
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    });
    expect(cipher.decrypt(encryptPassword(other.publicKey, 'correct horse'))).toMatch(/^[0-9a-f]{64}$/);
  });
});
