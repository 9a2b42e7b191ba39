import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Database } from '../db/open-database';
import { sharedSetting } from '../db/server-settings';

export interface ServerSecrets {
  /** PKCS#1 PEM of the key the browser's password ciphertexts are decrypted with. */
  rsaPrivateKeyPem: string;
  /** SPKI PEM ("BEGIN PUBLIC KEY"), what jsencrypt takes. */
  rsaPublicKeyPem: string;
  /** Keys the HMACs of codes and of undecryptable ciphertexts. */
  hmacSecret: Buffer;
}

const RSA_KEY_SETTING = 'auth.rsa_key';
const HMAC_SECRET_SETTING = 'auth.hmac_secret';

function keyPairFromPrivatePem(pem: string): { rsaPrivateKeyPem: string; rsaPublicKeyPem: string } {
  const privateKey = createPrivateKey(pem);
  return {
    rsaPrivateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    rsaPublicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The keys set in the environment (RSA_PRIVATE_KEY, AUTH_SECRET), each generated once and kept when unset. */
interface ConfiguredSecrets {
  rsaPrivateKeyPem: string | undefined;
  authSecret: string | undefined;
}

export async function loadServerSecrets(db: Database, config: ConfiguredSecrets): Promise<ServerSecrets> {
  const keyPair = config.rsaPrivateKeyPem
    ? keyPairFromPrivatePem(config.rsaPrivateKeyPem)
    : keyPairFromPrivatePem(
        (
          await sharedSetting(db, RSA_KEY_SETTING, () => {
            const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
            return { privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() };
          })
        ).privateKeyPem,
      );
  const hmacSecret = config.authSecret
    ? Buffer.from(config.authSecret, 'utf8')
    : Buffer.from(
        (await sharedSetting(db, HMAC_SECRET_SETTING, () => ({ secret: randomBytes(32).toString('base64') }))).secret,
        'base64',
      );
  return { ...keyPair, hmacSecret };
}
