import { generateKeyPairSync } from 'node:crypto';
import { encryptWithKey, PasswordEncryptionError } from './password-encryption';

// Node refuses PKCS#1 v1.5 decryption (CVE-2023-46809), so the test undoes the RSA by hand: m = c^d mod n,
// then checks the v1.5 padding (00 02 <non-zero random> 00 <message>) as the server's library does.
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
const jwk = privateKey.export({ format: 'jwk' });

const big = (base64url: string | undefined) => BigInt(`0x${Buffer.from(base64url ?? '', 'base64url').toString('hex')}`);

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

function decrypt(ciphertextBase64: string): string {
  const n = big(jwk.n);
  const m = modPow(BigInt(`0x${Buffer.from(ciphertextBase64, 'base64').toString('hex')}`), big(jwk.d), n);
  const block = Buffer.from(m.toString(16).padStart(512, '0'), 'hex');
  expect(block[0]).toBe(0x00);
  expect(block[1]).toBe(0x02);
  const separator = block.indexOf(0x00, 2);
  expect(separator).toBeGreaterThanOrEqual(10);
  return block.subarray(separator + 1).toString('utf8');
}

describe('password encryption (RSA with jsencrypt, base64)', () => {
  it('sends a 2048-bit RSA PKCS#1 v1.5 block, base64, that decrypts to the password', () => {
    const encrypted = encryptWithKey('correct horse ✓', publicPem);
    expect(encrypted).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(encrypted, 'base64')).toHaveLength(256);
    expect(decrypt(encrypted)).toBe('correct horse ✓');
  });

  it('pads randomly: the same password never looks the same twice', () => {
    expect(encryptWithKey('secret1', publicPem)).not.toBe(encryptWithKey('secret1', publicPem));
  });

  it('refuses what one RSA block cannot carry, and a missing key', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {}); // jsencrypt says why
    expect(() => encryptWithKey('x'.repeat(300), publicPem)).toThrow(PasswordEncryptionError);
    expect(() => encryptWithKey('secret1', 'not a key')).toThrow(PasswordEncryptionError);
  });
});
