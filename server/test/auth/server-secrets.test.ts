import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { loadServerSecrets } from '../../src/auth/server-secrets';
import { loadConfig } from '../../src/config';
import { serverSettings } from '../../src/db/schema/server';
import { describeEachDatabase, openedTestDatabase } from '../support/databases';

describeEachDatabase('server secrets', (driver) => {
  const database = openedTestDatabase(driver);

  it('are generated once and shared by every instance, even when they start together', async () => {
    const config = loadConfig({});
    const [first, second, third] = await Promise.all(
      [1, 2, 3].map(() => loadServerSecrets(database.current.db, config)),
    );
    expect(first?.rsaPublicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(second?.rsaPrivateKeyPem).toBe(first?.rsaPrivateKeyPem);
    expect(third?.hmacSecret.equals(first!.hmacSecret)).toBe(true);
    expect(first?.hmacSecret.length).toBe(32);
    const later = await loadServerSecrets(database.current.db, config);
    expect(later.rsaPublicKeyPem).toBe(first?.rsaPublicKeyPem);
  });

  it('come from RSA_PRIVATE_KEY and AUTH_SECRET when configured', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const config = loadConfig({
      RSA_PRIVATE_KEY: privateKey.replace(/\n/g, '\\n'),
      AUTH_SECRET: 'a-configured-secret-of-at-least-32-characters',
    });
    const secrets = await loadServerSecrets(database.current.db, config);
    expect(secrets.rsaPublicKeyPem).toBe(
      createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    );
    expect(secrets.hmacSecret.toString()).toBe('a-configured-secret-of-at-least-32-characters');
    const stored = await database.current.db
      .select()
      .from(serverSettings)
      .where(eq(serverSettings.key, 'auth.rsa_key'));
    expect(stored).toHaveLength(1);
  });
});
