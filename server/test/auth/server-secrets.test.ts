import { createECDH, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { loadServerSecrets } from '../../src/auth/server-secrets';
import { loadConfig } from '../../src/config';
import { serverSettings } from '../../src/db/schema/server';
import { loadVapidKeys } from '../../src/messages/web-push-sender';
import { describeEachDatabase, openedTestDatabase } from '../support/databases';

describeEachDatabase('server secrets', (driver) => {
  const database = openedTestDatabase(driver);
  const vapidSetting = (db: typeof database.current.db) =>
    db.select().from(serverSettings).where(eq(serverSettings.key, 'push.vapid_keys'));

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

  it('sign push messages with VAPID_PRIVATE_KEY when configured, keeping no copy of it in the database', async () => {
    const { db } = database.current;
    const made = await loadVapidKeys(db, undefined);
    expect(await vapidSetting(db)).toHaveLength(1);
    expect(await loadVapidKeys(db, undefined)).toEqual(made);

    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const privateKey = ecdh.getPrivateKey().toString('base64url');
    const configured = await loadVapidKeys(db, loadConfig({ VAPID_PRIVATE_KEY: privateKey }).vapidPrivateKey);
    expect(configured).toEqual({ privateKey, publicKey: ecdh.getPublicKey().toString('base64url') });
    // The copy an earlier start made is gone from the database (and so from its backups).
    expect(await vapidSetting(db)).toHaveLength(0);
  });
});
