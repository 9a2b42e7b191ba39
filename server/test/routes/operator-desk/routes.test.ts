import path from 'node:path';
import { eq } from 'drizzle-orm';
import { users } from '../../../src/db/schema/accounts';
import { locationRequests } from '../../../src/db/schema/location-requests';
import { operators } from '../../../src/db/schema/operators';
import { startOperatorSession } from '../../../src/operators/operator-sessions';
import { OPERATOR_COOKIE } from '../../../src/plugins/operator-guard';
import { describeEachDatabase } from '../../support/databases';
import { encryptPassword } from '../../support/jsencrypt';
import { insertRequest } from '../../support/share-fixtures';
import { freshEmail, freshIp, signUpSubscriber } from '../../support/sign-up';
import { buildTestApp, type TestApp } from '../../support/test-app';

const OWN_ORIGIN = 'http://localhost:8080';
const PASSWORD = 'Desk-route-pass-2026';

describeEachDatabase('the safety desk’s routes', (driver) => {
  let testApp: TestApp;
  let cookie: string;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, {
      PORT: '8080',
      RENEWAL_INTERVAL_SECONDS: '0',
      SERVE_WEB: 'true',
      WEB_ROOT: path.join(__dirname, '../../fixtures/web'),
    });
    const [operator] = await testApp.app.db
      .insert(operators)
      .values({ email: 'routes-desk@kabari.localhost', enrolledAt: new Date() })
      .returning();
    const { token } = await startOperatorSession(testApp.app.db, operator!);
    cookie = `${OPERATOR_COOKIE}=${token}`;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const desk = (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    app().inject({
      method,
      url,
      payload,
      remoteAddress: freshIp(),
      headers: { cookie, origin: OWN_ORIGIN, ...headers },
    });

  it('answers nobody but a signed-in operator: 404 as for an unknown path', async () => {
    const subscriber = await signUpSubscriber(app());
    for (const url of ['/api/v1/operator/reports', '/api/v1/operator/refunds-owed', '/api/v1/operator/sms-spend']) {
      const anonymous = await app().inject({ method: 'GET', url });
      expect([url, anonymous.statusCode]).toEqual([url, 404]);
      const asSubscriber = await app().inject({ method: 'GET', url, headers: { authorization: subscriber.token! } });
      expect([url, asSubscriber.statusCode]).toEqual([url, 404]);
      expect([url, (await desk('GET', url)).statusCode]).toEqual([url, 200]);
    }
  });

  it('takes a report from the consent page to a suspension: the share ends, sign-in and sending are refused', async () => {
    const email = freshEmail('desk-route');
    const signedUp = await signUpSubscriber(app(), { email, password: PASSWORD });
    const [user] = await app().db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const live = await insertRequest(app().db, user!.id, {
      consent: 'sharing',
      status: 'gps_tracked',
      liveUntil: new Date(Date.now() + 15 * 60_000),
      liveHeardAt: new Date(),
    });
    const reported = await app().inject({
      method: 'POST',
      url: `/api/v1/share/links/${live.token}/report`,
      remoteAddress: freshIp(),
      payload: { reason: 'stalking', details: 'I do not know this person' },
    });
    expect(reported.statusCode).toBe(200);
    const reportId: string = reported.json().data.id;

    const list = await desk('GET', '/api/v1/operator/reports?state=open');
    expect(list.json().data.reports[0]).toMatchObject({ id: reportId, state: 'open', requester: { id: user!.id } });
    const detail = await desk('GET', `/api/v1/operator/reports/${reportId}`);
    expect(detail.json().data).toMatchObject({
      report: { id: reportId, reason: 'stalking', details: 'I do not know this person' },
      request: { id: live.id, maskedTarget: '+62•••89' },
      requester: { id: user!.id },
    });

    // A suspension needs a note, and a page of ours.
    expect((await desk('POST', `/api/v1/operator/reports/${reportId}/suspend`, { note: ' ' })).statusCode).toBe(400);
    const elsewhere = await desk(
      'POST',
      `/api/v1/operator/reports/${reportId}/suspend`,
      { note: 'x' },
      {
        origin: 'https://evil.example',
      },
    );
    expect(elsewhere.statusCode).toBe(403);
    const suspended = await desk('POST', `/api/v1/operator/reports/${reportId}/suspend`, { note: 'Stalking' });
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().data).toMatchObject({ id: reportId, state: 'closed', outcome: 'suspended' });

    const page = await app().inject({ method: 'GET', url: `/api/v1/share/links/${live.token}` });
    expect(page.json().data).toMatchObject({ state: 'cancelled', liveUntil: null });
    const [row] = await app().db.select().from(locationRequests).where(eq(locationRequests.id, live.id));
    expect(row!.consent).toBe('cancelled');
    const publicKey = (await app().inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
    const signIn = await app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email, password: encryptPassword(publicKey, PASSWORD) },
    });
    expect(signIn.statusCode).toBe(403);
    const send = await app().inject({
      method: 'POST',
      url: '/api/v1/links',
      headers: { authorization: signedUp.token! },
      payload: { title: 'Again', locale: 'en' },
    });
    expect(send.statusCode).toBe(401);

    const suspensions = await desk('GET', '/api/v1/operator/suspensions');
    const suspension = suspensions.json().data.suspensions.find((one: { userId: string }) => one.userId === user!.id);
    expect(suspension).toMatchObject({ reportId, note: 'Stalking', liftedAt: null, refundOwed: true });
    const refunds = await desk('GET', '/api/v1/operator/refunds-owed');
    expect(refunds.json().data.refunds).toEqual(
      expect.arrayContaining([expect.objectContaining({ source: 'suspension', provider: 'sandbox' })]),
    );
    const lifted = await desk('POST', `/api/v1/operator/suspensions/${suspension.id}/lift`, { note: 'Appeal' });
    expect(lifted.json().data.suspension).toMatchObject({ id: suspension.id, liftNote: 'Appeal' });
  });
});
