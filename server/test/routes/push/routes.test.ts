import { eq } from 'drizzle-orm';
import { pushSubscriptions, users } from '../../../src/db/schema/accounts';
import { outboxMessages } from '../../../src/db/schema/outbox';
import { describeEachDatabase } from '../../support/databases';
import { startPushService, type TestPushService } from '../../support/push-service';
import { insertRequest } from '../../support/share-fixtures';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

// Notifications by Web Push, against a push service of our own that checks the VAPID signature and decrypts what
// it receives as the browser would: turning them on and off in a browser, a test notification, the requester's
// notices, and what a push service's refusals do.

describeEachDatabase('Web Push notifications', (driver) => {
  let testApp: TestApp;
  let pushService: TestPushService;

  beforeAll(async () => {
    pushService = await startPushService();
    testApp = await buildTestApp(
      driver,
      { PUBLIC_URL: 'https://kabari.example', OPERATOR_EMAIL: 'ops@kabari.example' },
      // The tests' push service listens on this machine, which only this allowance lets the server send to.
      { build: { pushAgent: pushService.agent, pushAllowLoopback: true } },
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await pushService?.close();
  });

  const app = () => testApp.app;
  const subscribe = (who: TestRequester, payload: unknown, language = 'en') =>
    app().inject({
      method: 'POST',
      url: '/api/v1/push/subscriptions',
      headers: { ...who.headers, 'accept-language': language },
      payload: payload as object,
    });
  const unsubscribe = (who: TestRequester, endpoint: string) =>
    app().inject({
      method: 'POST',
      url: '/api/v1/push/subscriptions/remove',
      headers: who.headers,
      payload: { endpoint },
    });
  const sendTest = (who: TestRequester, language = 'en') =>
    app().inject({
      method: 'POST',
      url: '/api/v1/push/test',
      headers: { ...who.headers, 'accept-language': language },
    });
  const pushesTo = (browser: string) => pushService.received.filter((push) => push.browser === browser);
  const subscriptionRows = (endpoint: string) =>
    app().db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));

  it('gives the key browsers subscribe with: one P-256 public key, the same every time', async () => {
    const first = await app().inject({ method: 'GET', url: '/api/v1/push/key' });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json().data;
    const point = Buffer.from(publicKey, 'base64url');
    expect(point).toHaveLength(65);
    expect(point[0]).toBe(0x04);
    expect((await app().inject({ method: 'GET', url: '/api/v1/push/key' })).json().data.publicKey).toBe(publicKey);
  });

  it('turns notifications on in a browser for the signed-in subscriber only, refusing what is not a subscription', async () => {
    const sari = await createRequester(app(), { displayName: 'Sari' });
    const { subscription } = pushService.browser('sari-phone');

    const signedOut = await app().inject({ method: 'POST', url: '/api/v1/push/subscriptions', payload: subscription });
    expect(signedOut.statusCode).toBe(401);
    const plainHttp = await subscribe(sari, { ...subscription, endpoint: 'http://push.example/abc' });
    expect(plainHttp.statusCode).toBe(400);
    expect(plainHttp.json().message).toBe('endpoint: endpoint must be the https address of a push service');
    const badKeys = await subscribe(sari, { ...subscription, keys: { p256dh: 'short', auth: 'x' } }, 'id');
    expect(badKeys.statusCode).toBe(400);
    expect(badKeys.json().message).toBe(
      'keys harus berisi kunci p256dh dan rahasia auth dari browser, seperti yang diberikan PushSubscription.toJSON()',
    );
    expect(await subscriptionRows(subscription.endpoint)).toHaveLength(0);

    const on = await subscribe(sari, subscription);
    expect(on.statusCode).toBe(200);
    expect(on.json().data).toEqual({ devices: 1 });
    // Sent again (the page checks it on every visit): still one.
    expect((await subscribe(sari, subscription)).json().data).toEqual({ devices: 1 });
    expect(await subscriptionRows(subscription.endpoint)).toEqual([
      expect.objectContaining({ userId: sari.userId, p256dh: subscription.keys.p256dh }),
    ]);
  });

  it('refuses an endpoint that is not on the public internet, in either language, and keeps nothing', async () => {
    const dewi = await createRequester(app(), { displayName: 'Dewi' });
    const { keys } = pushService.browser('dewi-phone').subscription;
    for (const endpoint of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.8:8443/push/abc',
      'https://[fd00::1]/push/abc',
      'https://100.64.1.1/push/abc',
      'https://[::ffff:192.168.1.1]/push/abc',
    ]) {
      const refused = await subscribe(dewi, { endpoint, keys });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe('endpoint must be the address of a push service on the public internet');
      expect(await subscriptionRows(endpoint)).toHaveLength(0);
    }
    const inIndonesian = await subscribe(dewi, { endpoint: 'https://192.168.0.1/push', keys }, 'id');
    expect(inIndonesian.json().message).toBe('endpoint harus berupa alamat layanan push di internet publik');
    const unknown = await subscribe(dewi, { endpoint: 'https://push.kabari.invalid/abc', keys }, 'id');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Layanan push browser Anda tidak dapat ditemukan. Silakan coba aktifkan notifikasi lagi nanti.',
    );
  });

  it('gives a browser to the account signed in there now, and lets only its owner turn it off', async () => {
    const budi = await createRequester(app(), { displayName: 'Budi' });
    const ani = await createRequester(app(), { displayName: 'Ani' });
    const { subscription } = pushService.browser('shared-laptop');
    await subscribe(budi, subscription);
    expect((await subscribe(ani, subscription)).json().data).toEqual({ devices: 1 });
    expect(await subscriptionRows(subscription.endpoint)).toEqual([expect.objectContaining({ userId: ani.userId })]);

    const notBudis = await unsubscribe(budi, subscription.endpoint);
    expect(notBudis.json().data).toEqual({ removed: false });
    expect(await subscriptionRows(subscription.endpoint)).toHaveLength(1);
    expect((await unsubscribe(ani, subscription.endpoint)).json().data).toEqual({ removed: true });
    expect(await subscriptionRows(subscription.endpoint)).toHaveLength(0);
  });

  it('sends a test notification to each of the subscriber’s browsers, signed and encrypted, in their language', async () => {
    const rina = await createRequester(app(), { displayName: 'Rina' });
    await app().db.update(users).set({ locale: 'id' }).where(eq(users.id, rina.userId));
    const none = await sendTest(rina, 'id');
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe('Notifikasi belum diaktifkan di browser mana pun milik Anda.');

    await subscribe(rina, pushService.browser('rina-phone').subscription);
    await subscribe(rina, pushService.browser('rina-laptop').subscription);
    const sent = await sendTest(rina);
    expect(sent.json().data).toEqual({ devices: 2 });
    await app().outbox.dispatchDue();

    const { publicKey } = (await app().inject({ method: 'GET', url: '/api/v1/push/key' })).json().data;
    for (const browser of ['rina-phone', 'rina-laptop']) {
      const [push] = pushesTo(browser);
      expect(JSON.parse(push!.payload)).toEqual({
        title: 'Notifikasi Kabari sudah aktif',
        body: 'Seperti inilah Kabari akan memberi tahu Anda saat kerabat membagikan lokasi, menolak, atau berhenti membagikan.',
        url: 'https://kabari.example/id/dashboard/',
        tag: 'test',
      });
      expect(push!.vapid).toMatchObject({ aud: push!.vapid.aud, sub: 'https://kabari.example', publicKey });
      expect(push!.vapid.aud).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(push!.vapid.exp * 1000).toBeGreaterThan(Date.now());
      expect(push!.headers).toMatchObject({ ttl: '86400', urgency: 'normal', 'content-encoding': 'aes128gcm' });
    }
    const rows = await app().db.select().from(outboxMessages).where(eq(outboxMessages.channel, 'push'));
    expect(rows.filter((row) => row.state === 'sent' && row.transport === 'web-push').length).toBeGreaterThanOrEqual(2);
  });

  it('tells the requester on their browsers what the recipient did, unless they turned that notice off there', async () => {
    const dewi = await createRequester(app(), { displayName: 'Dewi' });
    await subscribe(dewi, pushService.browser('dewi-phone').subscription);
    const request = await insertRequest(app().db, dewi.userId, { channel: 'link', target: null, title: 'Ibu' });
    const act = (action: string) =>
      app().inject({ method: 'POST', url: `/api/v1/share/links/${encodeURIComponent(request.token)}${action}` });

    expect((await act('/consent')).statusCode).toBe(200);
    await app().outbox.dispatchDue();
    expect(pushesTo('dewi-phone').map((push) => JSON.parse(push.payload))).toEqual([
      {
        title: '“Ibu” (your link) is sharing their location with you',
        body: '“Ibu” (your link) agreed to your Kabari request and shared their location.',
        url: 'https://kabari.example/dashboard/',
        tag: `request-${request.id}`,
      },
    ]);

    // Stops off as a notification, still on by email.
    const off = await app().inject({
      method: 'POST',
      url: '/api/v1/personnal/account/notices',
      headers: dewi.headers,
      payload: { push: { stopped: false } },
    });
    expect(off.json().data.push.stopped).toBe(false);
    expect(off.json().data.email.stopped).toBe(true);
    expect((await act('/stop')).statusCode).toBe(200);
    await app().outbox.dispatchDue();
    expect(pushesTo('dewi-phone')).toHaveLength(1);
    const messages = await app()
      .db.select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, `requester-notice:${request.id}:stopped`));
    expect(messages.map((message) => message.channel)).toEqual(['email']);
  });

  it('forgets a browser the push service says has expired, and tries again later when the service fails', async () => {
    const eko = await createRequester(app(), { displayName: 'Eko' });
    const gone = pushService.browser('eko-old-phone').subscription;
    const busy = pushService.browser('eko-laptop').subscription;
    await subscribe(eko, gone);
    await subscribe(eko, busy);
    pushService.answer('eko-old-phone', 410);
    pushService.answer('eko-laptop', 503);
    await sendTest(eko);
    await app().outbox.dispatchDue();

    expect(await subscriptionRows(gone.endpoint)).toHaveLength(0);
    expect(await subscriptionRows(busy.endpoint)).toHaveLength(1);
    const rows = await app().db.select().from(outboxMessages).where(eq(outboxMessages.channel, 'push'));
    const [goneRow] = rows.filter((row) => row.lastError?.includes('(410)'));
    expect(goneRow).toMatchObject({ state: 'failed', attempts: 1 });
    const [busyRow] = rows.filter((row) => row.lastError === 'The push service answered 503');
    expect(busyRow).toMatchObject({ state: 'queued', attempts: 1 });
    expect(busyRow!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
  });
});
