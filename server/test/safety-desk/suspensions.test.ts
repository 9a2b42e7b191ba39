import { and, eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { payments, subscriptions } from '../../src/db/schema/billing';
import { abuseReports, locationRequests, requestEvents } from '../../src/db/schema/location-requests';
import { sessions, users } from '../../src/db/schema/accounts';
import { operatorAuditLog, operators } from '../../src/db/schema/operators';
import { accountSuspensions } from '../../src/db/schema/safety-desk';
import { dismissReport, suspendRequester, warnRequester } from '../../src/safety-desk/report-actions';
import { refuseSuspendedEmail } from '../../src/safety-desk/suspension-checks';
import { liftSuspension } from '../../src/safety-desk/suspensions';
import { outboxMessages } from '../../src/db/schema/outbox';
import { describeEachDatabase } from '../support/databases';
import { encryptPassword } from '../support/jsencrypt';
import { insertRequest } from '../support/share-fixtures';
import { freshEmail, freshIp, signUpSubscriber } from '../support/sign-up';
import { buildTestApp, type TestApp } from '../support/test-app';

const PASSWORD = 'Suspended-pass-2026';

describeEachDatabase('suspending a requester', (driver) => {
  let testApp: TestApp;
  let operator: { id: string; email: string };

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
    const [row] = await testApp.app.db
      .insert(operators)
      .values({ email: 'desk@kabari.localhost' })
      .returning({ id: operators.id, email: operators.email });
    operator = row!;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const app = () => testApp.app;
  const db = () => testApp.app.db;
  const deps = () => ({
    db: db(),
    outbox: app().outbox,
    hmacSecret: app().auth.secrets.hmacSecret,
    publicUrl: testApp.config.publicUrl,
  });

  async function publicKey(): Promise<string> {
    return (await app().inject({ method: 'GET', url: '/api/v1/auth/publicKey' })).json().data.publicKey;
  }
  async function signIn(email: string) {
    return app().inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: freshIp(),
      payload: { email, password: encryptPassword(await publicKey(), PASSWORD) },
      headers: { 'accept-language': 'id' },
    });
  }

  /** A subscriber who signed up (a sandbox payment), with a report against one of their requests. */
  async function reportedSubscriber() {
    const email = freshEmail('reported');
    const signedUp = await signUpSubscriber(app(), { email, password: PASSWORD, locale: 'id' });
    const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
    const userId = user!.id;
    const live = await insertRequest(db(), userId, {
      consent: 'sharing',
      status: 'gps_tracked',
      liveUntil: new Date(Date.now() + 30 * 60_000),
      liveHeardAt: new Date(),
    });
    const pending = await insertRequest(db(), userId, { channel: 'link', target: null });
    const declined = await insertRequest(db(), userId, { consent: 'declined' });
    const [report] = await db()
      .insert(abuseReports)
      .values({ requestId: live.id, requesterId: userId, tokenHash: live.tokenHash, reason: 'harassment' })
      .returning();
    return { email, userId, token: signedUp.token!, live, pending, declined, report: report! };
  }

  it('ends live sharing and pending links at once, refuses sign-in and sending, stops renewals and owes the period back', async () => {
    const subject = await reportedSubscriber();
    const decision = await suspendRequester(deps(), operator, subject.report.id, 'Repeated harassment');
    expect(decision).toMatchObject({ id: subject.report.id, state: 'closed', outcome: 'suspended' });

    // The live share and the pending link are cancelled; a request already declined is left as it was.
    const rows = await db().select().from(locationRequests).where(eq(locationRequests.userId, subject.userId));
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(subject.live.id)).toMatchObject({ consent: 'cancelled', liveUntil: null });
    expect(byId.get(subject.pending.id)).toMatchObject({ consent: 'cancelled' });
    expect(byId.get(subject.declined.id)).toMatchObject({ consent: 'declined' });
    // The requester's map hears of it through the live events.
    const events = await db()
      .select()
      .from(requestEvents)
      .where(and(eq(requestEvents.requestId, subject.live.id), eq(requestEvents.type, 'request')));
    expect(events.some((event) => (event.payload as { consent?: string }).consent === 'cancelled')).toBe(true);
    // The recipient's page says the request has ended, and the live page's call finds nothing to keep open.
    const page = await app().inject({ method: 'GET', url: `/api/v1/share/links/${subject.live.token}` });
    expect(page.json().data).toMatchObject({ state: 'cancelled', liveUntil: null });
    const pendingPage = await app().inject({ method: 'GET', url: `/api/v1/share/links/${subject.pending.token}` });
    expect(pendingPage.json().data.state).toBe('cancelled');

    // Sessions end; signing in with the right password is refused, saying why, in the caller's language.
    const open = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, subject.userId)));
    expect(open.every((session) => session.revokedAt !== null)).toBe(true);
    const me = await app().inject({
      method: 'GET',
      url: '/api/v1/auth/session',
      headers: { authorization: subject.token },
    });
    expect(me.statusCode).toBe(401);
    const refused = await signIn(subject.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Akun ini ditangguhkan setelah ada laporan penyalahgunaan, jadi tidak dapat masuk. Jika menurut Anda ini keliru, hubungi kami lewat halaman kontak.',
    );

    // No renewal: the subscription is cancelled, and a renewal pass past its end charges nothing.
    const [subscription] = await db().select().from(subscriptions).where(eq(subscriptions.userId, subject.userId));
    expect(subscription!.status).toBe('cancelled');
    const report = await app().billing.runRenewals(
      new Date(subscription!.validUntil.getTime() + 60_000),
      subject.userId,
    );
    expect(report.renewed + report.failed + report.waiting).toBe(0);
    // The payment of the running period is owed back, for the refunds queue.
    const [payment] = await db().select().from(payments).where(eq(payments.userId, subject.userId));
    expect(payment).toMatchObject({ refundReason: 'suspension' });
    expect(payment!.refundOwedAt).not.toBeNull();
    const [suspension] = await db()
      .select()
      .from(accountSuspensions)
      .where(eq(accountSuspensions.userId, subject.userId));
    expect(suspension).toMatchObject({ refundPaymentId: payment!.id, note: 'Repeated harassment', liftedAt: null });
    // The email is kept only as a keyed hash.
    expect(JSON.stringify(suspension)).not.toContain(subject.email);

    // The audit log holds the decision and the suspension, with the note.
    const audit = await db().select().from(operatorAuditLog).where(eq(operatorAuditLog.operatorId, operator.id));
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'report.suspend', objectId: subject.report.id, note: 'Repeated harassment' }),
        expect.objectContaining({ action: 'account.suspend', objectId: subject.userId }),
      ]),
    );

    // A report is decided once.
    await expect(dismissReport(deps(), operator, subject.report.id, 'Again')).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('refuses sending and the suspended email, and a suspension is lifted once', async () => {
    const subject = await reportedSubscriber();
    const { suspensionId } = await suspendRequester(deps(), operator, subject.report.id, 'Stalking');
    // Sending is refused with its own message (a session made after the suspension, as if one slipped through).
    const { token } = await createSession(db(), subject.userId, 'jest');
    const send = await app().inject({
      method: 'POST',
      url: '/api/v1/links',
      headers: { authorization: token },
      payload: { title: 'Again', locale: 'en' },
    });
    expect(send.statusCode).toBe(403);
    // Not the subscription's refusal (data null): the app says it rather than showing its expired state.
    expect(send.json()).toEqual({
      status: 403,
      message: 'Your account has been suspended after a report of misuse: it cannot send location requests.',
      data: null,
    });

    // The check sign-up makes, whatever the case of the address.
    await expect(
      refuseSuspendedEmail(db(), app().auth.secrets.hmacSecret, subject.email.toUpperCase()),
    ).rejects.toMatchObject({ statusCode: 403 });
    const lifted = await liftSuspension(db(), operator, suspensionId!, 'Appeal accepted');
    expect(lifted).toMatchObject({ id: suspensionId, liftNote: 'Appeal accepted', userId: subject.userId });
    await expect(liftSuspension(db(), operator, suspensionId!, 'Twice')).rejects.toMatchObject({ statusCode: 404 });
    await expect(refuseSuspendedEmail(db(), app().auth.secrets.hmacSecret, subject.email)).resolves.toBeUndefined();
  });

  it('sign-up refuses the suspended email, its account erased, until the suspension is lifted', async () => {
    const subject = await reportedSubscriber();
    const { suspensionId } = await suspendRequester(deps(), operator, subject.report.id, 'Harassment');
    await db().delete(users).where(eq(users.id, subject.userId));
    await expect(signUpSubscriber(app(), { email: subject.email.toUpperCase() })).rejects.toThrow(/"status":403/);
    await liftSuspension(db(), operator, suspensionId!, 'Appeal accepted');
    expect((await signUpSubscriber(app(), { email: subject.email })).query.data.state).toBe('created');
  });

  it('lifting lets the same account sign in again; what was ended stays ended', async () => {
    const subject = await reportedSubscriber();
    const { suspensionId } = await suspendRequester(deps(), operator, subject.report.id, 'Spam');
    expect((await signIn(subject.email)).statusCode).toBe(403);
    await liftSuspension(db(), operator, suspensionId!, 'Mistaken report');
    expect((await signIn(subject.email)).statusCode).toBe(200);
    const [live] = await db().select().from(locationRequests).where(eq(locationRequests.id, subject.live.id));
    expect(live!.consent).toBe('cancelled');
  });

  it('warns the requester by email in their language, once per report', async () => {
    const subject = await reportedSubscriber();
    await warnRequester(deps(), operator, subject.report.id, null);
    const mail = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.idempotencyKey, `report-warning:${subject.report.id}`));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ recipient: subject.email, subject: 'Laporan tentang permintaan lokasi Anda' });
    expect(mail[0]!.bodyText).toContain('/id/contact-us');
    await expect(warnRequester(deps(), operator, subject.report.id, null)).rejects.toMatchObject({ statusCode: 409 });
    // A warning ends nothing.
    const [live] = await db().select().from(locationRequests).where(eq(locationRequests.id, subject.live.id));
    expect(live!.consent).toBe('sharing');
  });
});
