import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { openDatabase, queryRows, type OpenedDatabase } from '../../src/db/open-database';
import { linkTombstones, locationRequests, requestEvents } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { linkTokenKey, openLinkToken, sealLegacyLinkTokens } from '../../src/requests/request-tokens';
import { appAfterMigration } from '../support/database-before-migration';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../support/databases';
import { tablesHolding } from '../support/stored-text';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Tokens as the old version made them (32 base64url characters), one per kind of request.
const LINK_TOKEN = 'LinkTokenLinkTokenLinkTokenLink0';
const SMS_TOKEN = 'SmsTokenSmsTokenSmsTokenSmsToke1';
const EMAIL_TOKEN = 'MailTokenMailTokenMailTokenMail2';

describeEachDatabase('migration 0018: tokens stored before they were hashed', (driver) => {
  const appAfter = appAfterMigration(driver, 18);

  it('keeps every link working and the requester’s URL, and leaves no token readable in any row', async () => {
    const userId = randomUUID();
    const [linkId, smsId, emailId, smsMessage, emailMessage] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const expires = `now() + interval '7 days'`;
    const app = await appAfter(async (run) => {
      await run(`insert into users (id, email, display_name, password_hash)
                 values ('${userId}', 'rina@example.com', 'Rina', 'not-a-real-hash')`);
      // An SMS that Twilio took, and an email that stayed in the local outbox (a local trial).
      await run(`insert into outbox_messages (id, idempotency_key, channel, recipient, body_text, state, transport)
                 values ('${smsMessage}', 'location-request:${smsId}', 'sms', '+6281234567890',
                         'Kabari: Rina asks to see your location. Share or decline: https://kabari.example/enter-link?token=${SMS_TOKEN} Stop all requests: https://kabari.example/enter-link?token=${SMS_TOKEN}&action=opt-out',
                         'sent', 'twilio')`);
      await run(`insert into outbox_messages (id, idempotency_key, channel, recipient, subject, body_text, body_html,
                                              state, transport)
                 values ('${emailMessage}', 'location-request:${emailId}', 'email', 'ibu@example.com', 'Rina asks',
                         'Open http://localhost:8080/enter-link?token=${EMAIL_TOKEN}',
                         '<a href="http://localhost:8080/enter-link?token=${EMAIL_TOKEN}">open</a>', 'sent', 'local')`);
      await run(`insert into location_requests (id, user_id, channel, target, title, token, locale, message_id, expires_at)
                 values ('${linkId}', '${userId}', 'link', null, 'Weekend', '${LINK_TOKEN}', 'en', null, ${expires}),
                        ('${smsId}', '${userId}', 'sms', '+6281234567890', null, '${SMS_TOKEN}', 'en', '${smsMessage}', ${expires}),
                        ('${emailId}', '${userId}', 'email', 'ibu@example.com', null, '${EMAIL_TOKEN}', 'en', '${emailMessage}', ${expires})`);
      // The link's live event as the old version stored it: its URL and all.
      await run(`insert into request_events (user_id, request_id, type, payload)
                 values ('${userId}', '${linkId}', 'request',
                         '{"id": "${linkId}", "channel": "link", "url": "http://localhost:8080/enter-link?token=${LINK_TOKEN}"}'),
                        ('${userId}', '${linkId}', 'withdrawn', '{"requestId": "${linkId}"}')`);
    });

    const { db } = app;
    const rows = await db.select().from(locationRequests);
    expect(rows).toHaveLength(3);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(linkId)?.tokenHash).toBe(sha256(LINK_TOKEN));
    expect(byId.get(smsId)?.tokenHash).toBe(sha256(SMS_TOKEN));
    expect(byId.get(emailId)?.tokenHash).toBe(sha256(EMAIL_TOKEN));
    for (const row of rows) expect(row.legacyToken).toBeNull();
    // Only the link is sealed, for its requester; an SMS or email token only its recipient needs.
    const key = linkTokenKey(app.auth.secrets.hmacSecret);
    expect(openLinkToken(key, linkId, byId.get(linkId)!.tokenCipher!)).toBe(LINK_TOKEN);
    expect(byId.get(smsId)?.tokenCipher).toBeNull();
    expect(byId.get(emailId)?.tokenCipher).toBeNull();

    // The requester's list shows the link's URL as before.
    const { token: session } = await createSession(db, userId, 'jest');
    const list = await app.inject({ method: 'GET', url: '/api/v1/requests', headers: { authorization: session } });
    expect(list.json().data.items.find((item: { id: string }) => item.id === linkId)?.url).toBe(
      `http://localhost:8080/enter-link?token=${LINK_TOKEN}`,
    );
    // Stored live events lost the URL; the others are unchanged.
    const events = await db.select().from(requestEvents).orderBy(requestEvents.id);
    expect(events.map((event) => event.payload)).toEqual([
      { id: linkId, channel: 'link', url: null },
      { requestId: linkId },
    ]);
    // The SMS a provider took keeps its text without the token; the local outbox keeps its link whole.
    const [sms] = await db.select().from(outboxMessages).where(eq(outboxMessages.id, smsMessage));
    expect(sms?.bodyText).toBe(
      'Kabari: Rina asks to see your location. Share or decline: https://kabari.example/enter-link?token=[token] ' +
        'Stop all requests: https://kabari.example/enter-link?token=[token]&action=opt-out',
    );
    expect(await tablesHolding(db, LINK_TOKEN)).toEqual([]);
    expect(await tablesHolding(db, SMS_TOKEN)).toEqual([]);
    expect(await tablesHolding(db, EMAIL_TOKEN)).toEqual(['outbox_messages']);

    // Every link still opens by its token.
    for (const token of [LINK_TOKEN, SMS_TOKEN, EMAIL_TOKEN]) {
      expect((await app.inject({ method: 'GET', url: `/api/v1/share/links/${token}` })).statusCode).toBe(200);
    }
    // Deleted, the SMS request leaves its tombstone under the same hash: its opt-out link still works.
    await db.delete(locationRequests).where(eq(locationRequests.id, smsId));
    const [tombstone] = await db
      .select()
      .from(linkTombstones)
      .where(eq(linkTombstones.tokenHash, sha256(SMS_TOKEN)));
    expect(tombstone).toMatchObject({ requesterId: userId, channel: 'sms' });
    const optOut = await app.inject({ method: 'POST', url: `/api/v1/share/links/${SMS_TOKEN}/opt-out` });
    expect(optOut.json().data).toEqual({ optedOut: true });
  });
});

describeEachDatabase('sealing links’ plain tokens at start, with instances starting together', (driver) => {
  let database: TestDatabase | undefined;
  const opened: OpenedDatabase[] = [];

  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.client.close();
    await database?.cleanup();
    database = undefined;
  });

  it('seals each row exactly once however many run at once', async () => {
    database = await createTestDatabase(driver);
    const log = { info: () => undefined, error: () => undefined };
    const first = await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl }, log);
    opened.push(first);
    // PGlite belongs to one process; PostgreSQL takes a second instance's own pool.
    const second =
      driver === 'postgres'
        ? await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl }, log)
        : first;
    if (second !== first) opened.push(second);
    const [user] = await queryRows<{ id: string }>(
      first.db,
      sql`insert into users (email, display_name, password_hash) values ('sari@example.com', 'Sari', 'x') returning id`,
    );
    const count = 1200;
    await queryRows(
      first.db,
      sql`insert into location_requests (user_id, channel, title, token_hash, legacy_token, locale, expires_at)
          select ${user!.id}, 'link', 'Link ' || i, encode(sha256(convert_to('legacy-' || i, 'UTF8')), 'hex'),
                 'legacy-' || i, 'en', now() + interval '1 day'
          from generate_series(1, ${count}) as i`,
    );
    const secret = Buffer.from('k'.repeat(32));
    const sealed = await Promise.all([
      sealLegacyLinkTokens(first.db, secret),
      sealLegacyLinkTokens(second.db, secret),
      sealLegacyLinkTokens(second.db, secret),
    ]);
    expect(sealed.reduce((sum, n) => sum + n, 0)).toBe(count);
    const rows = await first.db.select().from(locationRequests);
    const key = linkTokenKey(secret);
    expect(rows.filter((row) => row.legacyToken !== null)).toEqual([]);
    for (const row of rows) expect(openLinkToken(key, row.id, row.tokenCipher!)).toBe(`legacy-${row.title!.slice(5)}`);
    // Nothing left: a later start seals nothing.
    expect(await sealLegacyLinkTokens(first.db, secret)).toBe(0);
  });
});
