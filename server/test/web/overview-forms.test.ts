import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { locationRequests } from '../../src/db/schema/location-requests';
import { outboxMessages } from '../../src/db/schema/outbox';
import { optOutKey } from '../../src/requests/opt-outs';
import { insertRequest, insertRequester, type RequestValues } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

// "Who can see me" (/my-requests) as plain forms, sent without the page's script: the same rules as the JSON routes,
// called directly, answered as the page rendered for the step this browser is at.

const fixtures = path.join(__dirname, '../fixtures/web');

/**
 * The web fixtures, with /my-requests prerendered and a render of it by the server (as remote-share's build writes
 * them): the render writes only the step, the page's data block carries what the page is rendered with.
 */
function webRootWithOverview(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'kabari-overview-web-'));
  cpSync(fixtures, root, { recursive: true });
  const prerender = path.join(root, 'remote-share/dist/prerender');
  const routes = JSON.parse(readFileSync(path.join(prerender, 'routes.json'), 'utf8')) as {
    routes: Record<string, unknown>;
  };
  for (const [pagePath, slug] of [
    ['/my-requests', 'my-requests'],
    ['/id/my-requests', 'id__my-requests'],
  ] as const) {
    routes.routes[pagePath] = { html: `${slug}.html`, head: `${slug}.head.html` };
    writeFileSync(path.join(prerender, `${slug}.html`), '<p>Loading</p>');
    writeFileSync(path.join(prerender, `${slug}.head.html`), '<title>Who can see me</title>');
    cpSync(
      path.join(root, 'host/dist/prerender/shells/enter-link.html'),
      path.join(root, `host/dist/prerender/shells/${slug}.html`),
    );
  }
  writeFileSync(path.join(prerender, 'routes.json'), JSON.stringify(routes));
  writeFileSync(
    path.join(prerender, 'server-render.cjs'),
    `exports.renderRecipientPage = (pathname, search, link, failure, shared, overview) =>
  /my-requests$/.test(pathname) ? '<main data-step="' + (overview ? overview.step : 'none') + '"></main>' : null;\n`,
  );
  return root;
}

/** The overview's step as the page's data block carries it (OverviewPageView), as far as these tests read it. */
interface PageView {
  step: string;
  overview?: { requests: { id: string; requesterName: string; state: string }[] };
  [more: string]: unknown;
}

describe("the consent overview's plain forms (/my-requests without script)", () => {
  let testApp: TestApp;
  let webRoot: string;
  let rina: string;
  let budi: string;
  let address = 0;
  let numbers = 0;

  beforeAll(async () => {
    webRoot = webRootWithOverview();
    testApp = await buildTestApp('pglite', { SERVE_WEB: 'true', WEB_ROOT: webRoot });
    rina = await insertRequester(testApp.app.db, 'Rina Wijaya');
    budi = await insertRequester(testApp.app.db, 'Budi Santoso');
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  const db = () => testApp.app.db;
  /** A new Indonesian mobile number for each test, so that no test meets another's codes or throttles. */
  const newNumber = () => {
    numbers += 1;
    return `+62812${String(4_000_000 + numbers * 7919 + Math.floor(Math.random() * 1000)).padStart(7, '0')}`;
  };
  const requestTo = (requester: string, target: string, values: RequestValues = {}) =>
    insertRequest(db(), requester, {
      channel: 'sms',
      target,
      targetHash: optOutKey(testApp.app.auth.secrets.hmacSecret, target),
      ...values,
    });
  const rowOf = async (id: string) =>
    (await db().select().from(locationRequests).where(eq(locationRequests.id, id)))[0]!;
  const lastCodeTo = async (target: string) => {
    const [message] = await db()
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.recipient, target))
      .orderBy(sql`${outboxMessages.createdAt} desc`)
      .limit(1);
    return message?.bodyText.match(/\b(\d{6})\b/)?.[1];
  };
  const codesTo = async (target: string) =>
    (await db().select().from(outboxMessages).where(eq(outboxMessages.recipient, target))).length;

  /** A form as a browser without script posts it from the page itself, each from its own network address. */
  const post = (
    page: string,
    fields: Record<string, string>,
    cookie?: string,
    headers: Record<string, string> = {},
  ) => {
    address += 1;
    return testApp.app.inject({
      method: 'POST',
      url: page,
      remoteAddress: `198.51.100.${address % 250}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: testApp.config.publicUrl.replace(/\/$/, ''),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      payload: new URLSearchParams(fields).toString(),
    });
  };
  const get = (url: string, cookie?: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
  /** What the page was rendered with: its data block (the same the page's script hydrates from). */
  const viewOf = (answer: LightMyRequestResponse) => {
    const block = /<script type="application\/json" id="recipient-data">(.*?)<\/script>/.exec(answer.body);
    if (!block) throw new Error(`no page data in ${answer.statusCode} ${answer.body.slice(0, 300)}`);
    return (JSON.parse(block[1]!) as { overview: PageView }).overview;
  };
  /** Proves a number through the forms: the session's cookie header. */
  const prove = async (page: string, target: string) => {
    const sent = await post(page, { action: 'send-code', address: target });
    expect(sent.statusCode).toBe(200);
    const entered = await post(page, { action: 'enter-code', address: target, code: (await lastCodeTo(target))! });
    expect(entered.statusCode).toBe(303);
    const cookie = entered.cookies.find((set) => set.name === 'kabari-overview' && set.path === page);
    return `kabari-overview=${cookie!.value}`;
  };

  it('proves the number (address, then code), lists its requests, and Stop everything ends them, each step a page', async () => {
    const target = newNumber();
    const live = await requestTo(rina, target, { consent: 'sharing', consentedAt: new Date() });
    const waiting = await requestTo(budi, target);

    expect(viewOf(await get('/my-requests'))).toEqual({ step: 'address' });
    const sent = await post('/my-requests', { action: 'send-code', address: target });
    expect(sent.statusCode).toBe(200);
    expect(sent.headers['cache-control']).toBe('no-store');
    expect(sent.body).toContain('data-step="code"');
    expect(viewOf(sent)).toEqual({ step: 'code', address: target });
    const code = (await lastCodeTo(target))!;
    expect(code).toMatch(/^\d{6}$/);

    const entered = await post('/my-requests', { action: 'enter-code', address: target, code });
    expect(entered.statusCode).toBe(303);
    expect(entered.headers.location).toBe('/my-requests');
    // The JSON route's cookie, on the same paths with the same rules.
    const cookies = entered.cookies.filter((set) => set.name === 'kabari-overview');
    expect(cookies.map((set) => set.path).sort()).toEqual(['/api/v1/my-requests', '/id/my-requests', '/my-requests']);
    for (const set of cookies) expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const cookie = `kabari-overview=${cookies[0]!.value}`;

    const list = viewOf(await get('/my-requests', cookie));
    expect(list.step).toBe('list');
    expect(list.overview!.requests.map(({ requesterName, state }) => [requesterName, state]).sort()).toEqual([
      ['Budi Santoso', 'open'],
      ['Rina Wijaya', 'sharing'],
    ]);
    // The session lets the JSON route in as well: one session, whichever way it was opened.
    const api = await testApp.app.inject({ method: 'GET', url: '/api/v1/my-requests', headers: { cookie } });
    expect(api.statusCode).toBe(200);

    const stopped = await post('/my-requests', { action: 'stop-everything' }, cookie);
    expect(stopped.statusCode).toBe(303);
    expect(stopped.headers.location).toBe('/my-requests?done=stop-everything&ended=1&declined=1');
    expect((await rowOf(live.id)).consent).toBe('stopped');
    expect((await rowOf(waiting.id)).consent).toBe('declined');

    // Quick exit without script: the session ends, the cookie goes, the browser leaves for the neutral page.
    const exit = await get('/my-requests/exit', cookie);
    expect(exit.statusCode).toBe(303);
    expect(exit.headers.location).toBe('https://www.google.com/search?q=weather');
    expect(exit.cookies.filter((set) => set.name === 'kabari-overview' && set.value === '')).toHaveLength(3);
    expect(viewOf(await get('/my-requests', cookie))).toEqual({ step: 'address' });
  });

  it('acts on one request with its own form, and reports one', async () => {
    const target = newNumber();
    const live = await requestTo(rina, target, { consent: 'sharing', consentedAt: new Date() });
    const waiting = await requestTo(budi, target);
    const cookie = await prove('/my-requests', target);

    const declined = await post('/my-requests', { action: 'decline', request: waiting.id }, cookie);
    expect(declined.headers.location).toBe('/my-requests?done=decline');
    expect((await rowOf(waiting.id)).consent).toBe('declined');
    expect((await rowOf(live.id)).consent).toBe('sharing');

    const reported = await post('/my-requests', { action: 'report', request: live.id, reason: 'stalking' }, cookie);
    expect(reported.statusCode).toBe(303);
    expect(reported.headers.location).toBe('/my-requests?done=report');
    expect(reported.cookies.map((set) => set.name)).toContain('kabari-reporter');

    // A change the rules refuse (stopping a share that never started) is said over the list.
    const again = await post('/my-requests', { action: 'stop', request: waiting.id }, cookie);
    expect(again.statusCode).toBe(409);
    expect(viewOf(again)).toMatchObject({ step: 'list', error: expect.any(String) });
  });

  it('refuses a wrong code: the code step again, saying so, and no session', async () => {
    const target = newNumber();
    await requestTo(rina, target);
    await post('/my-requests', { action: 'send-code', address: target });
    const code = (await lastCodeTo(target))!;
    const wrong = code === '000000' ? '000001' : '000000';
    const refused = await post('/my-requests', { action: 'enter-code', address: target, code: wrong });
    expect(refused.statusCode).toBe(400);
    expect(viewOf(refused)).toEqual({
      step: 'code',
      address: target,
      error: 'The verification code is incorrect or has expired.',
    });
    expect(refused.cookies.filter((set) => set.name === 'kabari-overview')).toEqual([]);
    const malformed = await post('/my-requests', { action: 'enter-code', address: target, code: '12ab' });
    expect(malformed.statusCode).toBe(400);
    expect(viewOf(malformed)).toMatchObject({ step: 'code', address: target });
  });

  it("never opens or changes another address's requests with a code or a session for one", async () => {
    const mine = newNumber();
    const theirs = newNumber();
    const theirRequest = await requestTo(rina, theirs, { consent: 'sharing', consentedAt: new Date() });
    await requestTo(budi, mine);

    // The code sent to one number, entered with another in the (hidden) address field.
    await post('/my-requests', { action: 'send-code', address: mine });
    const code = (await lastCodeTo(mine))!;
    const swapped = await post('/my-requests', { action: 'enter-code', address: theirs, code });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.cookies.filter((set) => set.name === 'kabari-overview')).toEqual([]);
    expect(viewOf(swapped)).toMatchObject({ step: 'code', address: theirs });

    // A session for one number lists only its requests, and cannot act on another's.
    const cookie = await prove('/my-requests', mine);
    const list = viewOf(await get('/my-requests', cookie));
    expect(list.overview!.requests.map(({ id }) => id)).not.toContain(theirRequest.id);
    for (const action of ['stop', 'withdraw', 'decline']) {
      const refused = await post('/my-requests', { action, request: theirRequest.id }, cookie);
      expect(refused.statusCode).toBe(404);
      expect(viewOf(refused)).toMatchObject({ step: 'list', error: 'Request not found.' });
    }
    expect((await rowOf(theirRequest.id)).consent).toBe('sharing');
  });

  it('changes nothing for a form not filled in as expected, a post from another site, or no session', async () => {
    const target = newNumber();
    const waiting = await requestTo(budi, target);
    const cookie = await prove('/my-requests', target);
    const forms: Record<string, string>[] = [
      { action: 'erase', request: waiting.id },
      { action: 'decline', request: 'not-an-id' },
      { action: 'decline' },
      { action: 'report', request: waiting.id, reason: 'because' },
      { address: target },
    ];
    for (const fields of forms) {
      const refused = await post('/my-requests', fields, cookie);
      expect(refused.statusCode).toBe(400);
      expect(viewOf(refused)).toMatchObject({
        step: 'list',
        error: 'This form was not filled in as expected. Please try again.',
      });
    }
    expect((await rowOf(waiting.id)).consent).toBe('none');

    // From another site's page: refused before the form is read.
    const before = await codesTo(target);
    const crossSite = await post('/my-requests', { action: 'send-code', address: target }, undefined, {
      origin: 'https://evil.example',
    });
    expect(crossSite.statusCode).toBe(403);
    const forged = await post('/my-requests', { action: 'stop-everything' }, cookie, {
      origin: 'https://evil.example',
    });
    expect(forged.statusCode).toBe(403);
    expect(await codesTo(target)).toBe(before);
    expect((await rowOf(waiting.id)).consent).toBe('none');

    // Without a session (or after it ended): the address step, saying so.
    const noSession = await post('/my-requests', { action: 'stop-everything' });
    expect(noSession.statusCode).toBe(401);
    expect(viewOf(noSession)).toEqual({
      step: 'address',
      error: 'Your session has ended. Enter your number or email address again to see your requests.',
    });
    expect((await rowOf(waiting.id)).consent).toBe('none');
  });

  it('answers the code step alike whether or not any request went to the address', async () => {
    const asked = newNumber();
    const never = newNumber();
    await requestTo(rina, asked);
    const first = await post('/my-requests', { action: 'send-code', address: asked });
    const second = await post('/my-requests', { action: 'send-code', address: never });
    expect(first.statusCode).toBe(second.statusCode);
    expect(viewOf(first)).toEqual({ step: 'code', address: asked });
    expect(viewOf(second)).toEqual({ step: 'code', address: never });
    expect(first.body.replace(asked, 'X')).toBe(second.body.replace(never, 'X'));
    expect(await lastCodeTo(asked)).toMatch(/^\d{6}$/);
    expect(await lastCodeTo(never)).toMatch(/^\d{6}$/);
  });

  it('speaks Indonesian under /id: refusals, the code step, and the list', async () => {
    const refused = await post('/id/my-requests', { action: 'send-code', address: 'bukan alamat' });
    expect(refused.statusCode).toBe(400);
    expect(viewOf(refused)).toEqual({
      step: 'address',
      address: 'bukan alamat',
      error: 'Masukkan nomor ponsel Anda (dengan kode negara, misalnya +62…) atau alamat email Anda.',
    });
    const invalid = await post('/id/my-requests', { action: 'nothing' });
    expect(invalid.statusCode).toBe(400);
    expect(viewOf(invalid)).toEqual({
      step: 'address',
      error: 'Formulir ini tidak terisi sebagaimana mestinya. Silakan coba lagi.',
    });

    const target = newNumber();
    const waiting = await requestTo(budi, target);
    const cookie = await prove('/id/my-requests', target);
    expect(viewOf(await get('/id/my-requests', cookie))).toMatchObject({ step: 'list' });
    const [message] = await db().select().from(outboxMessages).where(eq(outboxMessages.recipient, target));
    expect(message?.locale).toBe('id');
    const wrong = await post('/id/my-requests', { action: 'decline', request: 'nope' }, cookie);
    expect(viewOf(wrong)).toMatchObject({
      step: 'list',
      error: 'Formulir ini tidak terisi sebagaimana mestinya. Silakan coba lagi.',
    });
    const optedOut = await post('/id/my-requests', { action: 'opt-out' }, cookie);
    expect(optedOut.headers.location).toBe('/id/my-requests?done=opt-out');
    expect((await rowOf(waiting.id)).consent).toBe('declined');
  });
});
