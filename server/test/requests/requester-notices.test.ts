import { eq } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { users } from '../../src/db/schema/accounts';
import { outboxMessages } from '../../src/db/schema/outbox';
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
    expect(read.json().data).toEqual({ email: { shared: true, declined: true, stopped: true, withdrawn: true } });

    const set = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/personnal/account/notices',
      headers,
      payload: { email: { shared: false, declined: false } },
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toEqual({ email: { shared: false, declined: false, stopped: true, withdrawn: true } });

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
    for (const payload of [{ email: { shared: 'no' } }, { email: { lunch: false } }, { push: { shared: false } }, {}]) {
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
    expect(read.json().data.email).toEqual({ shared: true, declined: true, stopped: true, withdrawn: true });
  });
});
