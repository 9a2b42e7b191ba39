import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { linkTombstones, locationRequests, optOuts } from '../../src/db/schema/location-requests';
import { keyedHash } from '../../src/lib/keyed-hash';
import { rekeyOptOuts } from '../../src/requests/opt-outs';
import { describeEachDatabase } from '../support/databases';
import { tokenFromMessage } from '../support/request-token';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { createRequester, type TestRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';

let addressCounter = 0;
const nextAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;
let numberCounter = 0;
const freshNumber = () => `+628129876${String(numberCounter++).padStart(4, '0')}`;
/** How opt-outs were stored before they were keyed: the plain sha256 of the number, which anyone can recompute. */
const plainSha256 = (target: string) => createHash('sha256').update(target).digest('hex');

describeEachDatabase('opt-outs under a keyed hash', (driver) => {
  let testApp: TestApp;
  let sari: TestRequester;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RETENTION_DAYS: '30' });
    sari = await createRequester(testApp.app, { displayName: 'Sari Wulandari' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  const secretKey = (target: string) => keyedHash(testApp.app.auth.secrets.hmacSecret, 'opt-out', target);
  const sendSms = (number: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: sari.headers,
      remoteAddress: nextAddress(),
      payload: { number, templateId: 'check-in', note: '', locale: 'en' },
    });
  const share = (token: string, action: string) =>
    testApp.app.inject({ method: 'POST', url: `/api/v1/share/links/${token}${action}`, remoteAddress: nextAddress() });
  const optOutRows = () => db().select().from(optOuts);

  it('stores a number’s opt-out under a hash keyed with the server’s secret, not its plain sha256', async () => {
    const number = freshNumber();
    expect((await sendSms(number)).statusCode).toBe(200);
    const [request] = await db().select().from(locationRequests).where(eq(locationRequests.target, number));
    expect((await share(await tokenFromMessage(db(), request!.id), '/opt-out')).json().data).toEqual({
      optedOut: true,
    });

    const stored = JSON.stringify(await optOutRows());
    expect(stored).toContain(secretKey(number));
    expect(stored).not.toContain(plainSha256(number));
    expect(stored).not.toContain(number.slice(1));
    // And it holds: the number is never messaged again.
    expect((await sendSms(number)).statusCode).toBe(409);
  });

  it('keeps the keyed hash in the tombstone of a deleted request, and an opt-out through it holds', async () => {
    const number = freshNumber();
    expect((await sendSms(number)).statusCode).toBe(200);
    const [request] = await db().select().from(locationRequests).where(eq(locationRequests.target, number));
    const token = await tokenFromMessage(db(), request!.id);
    await db().delete(locationRequests).where(eq(locationRequests.id, request!.id));
    const tombstones = JSON.stringify(await db().select().from(linkTombstones));
    expect(tombstones).toContain(secretKey(number));
    expect(tombstones).not.toContain(plainSha256(number));

    expect((await share(token, '/opt-out')).json().data).toEqual({ optedOut: true });
    expect((await sendSms(number)).statusCode).toBe(409);
  });

  it('never loses an opt-out stored under the old plain hash: it still blocks, and is re-keyed when met', async () => {
    const number = freshNumber();
    await db()
      .insert(optOuts)
      .values({ targetHash: plainSha256(number), channel: 'sms' });
    const refused = await sendSms(number);
    expect(refused.statusCode).toBe(409);
    const rows = await optOutRows();
    expect(rows.map((row) => row.targetHash)).toContain(secretKey(number));
    expect(rows.map((row) => row.targetHash)).not.toContain(plainSha256(number));
    expect((await sendSms(number)).statusCode).toBe(409);
  });

  it('re-keys, in the background job, old opt-outs and requests whose number it still holds', async () => {
    const requesterId = await insertRequester(db());
    const number = freshNumber();
    // A request and an opt-out as they were stored before the keyed hash.
    const old = await insertRequest(db(), requesterId, { target: number });
    await db()
      .insert(optOuts)
      .values({ targetHash: plainSha256(number), channel: 'sms' });
    expect(old.targetHash).toBeNull();

    const result = await rekeyOptOuts(db(), testApp.app.auth.secrets.hmacSecret);
    expect(result.requests).toBeGreaterThanOrEqual(1);
    expect(result.optOuts).toBeGreaterThanOrEqual(1);
    const [request] = await db().select().from(locationRequests).where(eq(locationRequests.id, old.id));
    expect(request?.targetHash).toBe(secretKey(number));
    const hashes = (await optOutRows()).map((row) => row.targetHash);
    expect(hashes).toContain(secretKey(number));
    expect(hashes).not.toContain(plainSha256(number));
    // Its tombstone, once deleted, carries the keyed hash too.
    await db().delete(locationRequests).where(eq(locationRequests.id, old.id));
    const [tombstone] = await db()
      .select()
      .from(linkTombstones)
      .where(eq(linkTombstones.tokenHash, plainSha256(old.token)));
    expect(tombstone?.targetHash).toBe(secretKey(number));
  });
});
