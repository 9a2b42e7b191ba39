import * as jsencryptModule from 'jsencrypt';

// The browser's encryption, exactly: the front end uses jsencrypt (RSA, then base64).
type JSEncryptInstance = { setPublicKey(pem: string): void; encrypt(text: string): string | false };
const moduleExports = jsencryptModule as unknown as {
  default?: new () => JSEncryptInstance;
  JSEncrypt?: new () => JSEncryptInstance;
};
const JSEncrypt = (moduleExports.default ?? moduleExports.JSEncrypt) as new () => JSEncryptInstance;

export function encryptPassword(publicKeyPem: string, password: string): string {
  const encryptor = new JSEncrypt();
  encryptor.setPublicKey(publicKeyPem);
  const ciphertext = encryptor.encrypt(password);
  if (!ciphertext) throw new Error('jsencrypt could not encrypt the password');
  return ciphertext;
}

/** The same ciphertext with one byte changed, as an attacker probing the padding would send. */
export function tamper(ciphertextBase64: string, byteIndex = 10): string {
  const bytes = Buffer.from(ciphertextBase64, 'base64');
  bytes[byteIndex] = (bytes[byteIndex] ?? 0) ^ 0x01;
  return bytes.toString('base64');
}
