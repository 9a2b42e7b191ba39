import { eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { users } from '../../src/db/schema/accounts';
import { locationRequests } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { noticeLiveEndings } from '../../src/requests/requester-notices';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

// The requester hears what a recipient did with their request (shared, declined, stopped, withdrew consent) by
// email, in their account's language, once, unless they turned that email off.

describeEachDatabase('emails that tell the requester what the recipient did', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { PUBLIC_URL: 'https://kabari.example' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  const link = (token: string, action: string) => `/api/v1/share/links/${encodeURIComponent(token)}${action}`;
  const act = (token: string, action: string, payload: object = {}) =>
    testApp.app.inject({ method: 'POST', url: link(token, action), payload });

  async function requester(locale: 'en' | 'id' = 'en') {
    const id = await insertRequester(db(), locale === 'id' ? 'Sari' : 'Budi');
    const [user] = await db().update(users).set({ locale }).where(eq(users.id, id)).returning();
    const { token } = await createSession(db(), id, 'jest');
    return { id, email: user!.email, session: token };
  }
  const emailsTo = (address: string) =>
    db().select().from(outboxMessages).where(eq(outboxMessages.recipient, address)).orderBy(outboxMessages.createdAt);

  it('tells of a share, then of a stop, each once, with the dashboard’s address', async () => {
    const budi = await requester();
    const request = await insertRequest(db(), budi.id, { target: '+6281234567001' });
    expect((await act(request.token, '/consent')).statusCode).toBe(200);
    // Asked again (a second tap, a retry): nothing new is sent.
    expect((await act(request.token, '/consent')).statusCode).toBe(200);
    expect((await act(request.token, '/stop')).statusCode).toBe(200);
    expect((await act(request.token, '/stop')).statusCode).toBe(200);

    const sent = await emailsTo(budi.email);
    expect(sent.map((email) => email.subject)).toEqual([
      '+6281234567001 is sharing their location with you',
      '+6281234567001 stopped sharing their location',
    ]);
    expect(sent[0]).toMatchObject({ channel: 'email', locale: 'en' });
    expect(sent[0]?.bodyText).toContain('Hello Budi,');
    expect(sent[0]?.bodyText).toContain('https://kabari.example/dashboard/');
    expect(sent[1]?.bodyText).toContain('What they shared before stays on your dashboard.');
  });

  it('in the account’s language, naming a link by its title: a decline and a withdrawal', async () => {
    const sari = await requester('id');
    const declined = await insertRequest(db(), sari.id, { channel: 'link', target: null, title: 'Ibu' });
    expect((await act(declined.token, '/decline')).statusCode).toBe(200);
    const withdrawn = await insertRequest(db(), sari.id, { channel: 'email', target: 'ibu@example.com' });
    await act(withdrawn.token, '/consent');
    expect((await act(withdrawn.token, '/withdraw')).statusCode).toBe(200);

    const subjects = (await emailsTo(sari.email)).map((email) => email.subject);
    expect(subjects).toEqual([
      '“Ibu” (tautan Anda) menolak permintaan lokasi Anda',
      'ibu@example.com membagikan lokasinya kepada Anda',
      'ibu@example.com menarik persetujuannya',
    ]);
    const [first] = await emailsTo(sari.email);
    expect(first?.bodyText).toContain('Halo Sari,');
    expect(first?.bodyText).toContain('https://kabari.example/id/dashboard/');
  });

  it('sends none of the emails the requester turned off, and the account page reads and sets them', async () => {
    const budi = await requester();
    const headers = { authorization: budi.session };
    const read = await testApp.app.inject({ method: 'GET', url: '/api/v1/personnal/account/notices', headers });
    expect(read.json().data).toEqual({
      email: { shared: true, declined: true, stopped: true, withdrawn: true, live_ended: true },
      push: { shared: true, declined: true, stopped: true, withdrawn: true, live_ended: true },
    });

    const set = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/notices',
      headers,
      payload: { email: { shared: false, declined: false } },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toEqual({
      email: { shared: false, declined: false, stopped: true, withdrawn: true, live_ended: true },
      // Notifications are turned off on their own.
      push: { shared: true, declined: true, stopped: true, withdrawn: true, live_ended: true },
    });

    const request = await insertRequest(db(), budi.id);
    await act(request.token, '/consent');
    await act(request.token, '/stop');
    expect((await emailsTo(budi.email)).map((email) => email.subject)).toEqual([
      '+628123456789 stopped sharing their location',
    ]);

    // On again: the next share is told.
    await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/notices',
      headers,
      payload: { email: { shared: true } },
    });
    const next = await insertRequest(db(), budi.id);
    await act(next.token, '/consent');
    expect(await emailsTo(budi.email)).toHaveLength(2);
  });

  it('refuses a setting it does not know, or no session, and changes nothing', async () => {
    const budi = await requester();
    const headers = { authorization: budi.session };
    for (const payload of [{ email: { shared: 'no' } }, { email: { lunch: false } }, { sms: { shared: false } }, {}]) {
      const refused = await testApp.app.inject({
        method: 'POST',
        url: '/api/v1/personnal/account/notices',
        headers,
        payload,
      });
      expect(refused.statusCode).toBe(400);
    }
    const anonymous = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/notices',
      payload: { email: { shared: false } },
    });
    expect(anonymous.statusCode).toBe(401);
    const read = await testApp.app.inject({ method: 'GET', url: '/api/v1/personnal/account/notices', headers });
    expect(read.json().data.email).toEqual({
      shared: true,
      declined: true,
      stopped: true,
      withdrawn: true,
      live_ended: true,
    });
  });

  it('tells once that a live sharing ended at its time; a new window is told again; an early end is not', async () => {
    const budi = await requester();
    const request = await insertRequest(db(), budi.id, { target: '+6281234567002' });
    await act(request.token, '/consent');
    expect((await act(request.token, '/live', { minutes: 15 })).statusCode).toBe(200);
    const deps = { outbox: testApp.app.outbox, publicUrl: 'https://kabari.example' };
    const liveEnded = async () =>
      (await emailsTo(budi.email)).filter((email) => email.subject?.includes('live location sharing has ended'));

    // Not yet at its end.
    await noticeLiveEndings(db(), deps);
    expect(await liveEnded()).toHaveLength(0);
    // Its end passes (as if 15 minutes went by): told once, however often the job runs.
    const end = new Date(Date.now() - 1_000);
    await db().update(locationRequests).set({ liveUntil: end }).where(eq(locationRequests.id, request.id));
    await noticeLiveEndings(db(), deps);
    await noticeLiveEndings(db(), deps);
    const told = await liveEnded();
    expect(told.map((email) => email.subject)).toEqual(['+6281234567002’s live location sharing has ended']);
    expect(told[0]?.bodyText).toContain('Their last position stays on your dashboard.');

    // A second window, ended by the recipient's page before its time (liveUntil cleared): nothing more.
    await act(request.token, '/live', { minutes: 15 });
    const [row] = await db().select().from(locationRequests).where(eq(locationRequests.id, request.id));
    await act(request.token, '/live/end', { liveUntil: row!.liveUntil!.toISOString() });
    await noticeLiveEndings(db(), deps);
    expect(await liveEnded()).toHaveLength(1);
    // A third, reaching its time: told again.
    await act(request.token, '/live', { minutes: 15 });
    await db()
      .update(locationRequests)
      .set({ liveUntil: new Date(Date.now() - 500) })
      .where(eq(locationRequests.id, request.id));
    expect(await noticeLiveEndings(db(), deps)).toBeGreaterThanOrEqual(1);
    expect(await liveEnded()).toHaveLength(2);
  });
});
