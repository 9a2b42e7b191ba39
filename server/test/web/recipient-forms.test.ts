import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { loggerOptions } from '../../src/app';
import { loadConfig } from '../../src/config';
import { locationRequests } from '../../src/db/schema/location-requests';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

// The consent page's plain forms, sent without the page's script: the same rules as the JSON routes, called
// directly, answered as pages.
describe("the consent page's plain forms", () => {
  let testApp: TestApp;
  let requesterId: string;
  let address = 0;
  const logLines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    testApp = await buildTestApp(
      'pglite',
      { SERVE_WEB: 'true', WEB_ROOT: path.join(__dirname, '../fixtures/web') },
      { logger: { ...(loggerOptions(loadConfig({ LOG_LEVEL: 'info' })) as object), stream } },
    );
    requesterId = await insertRequester(testApp.app.db, 'Budi Santoso');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  // Each form from its own address, so the per-address throttle stays out of the way.
  const send = (page: string, token: string, payload: string) => {
    address += 1;
    return testApp.app.inject({
      method: 'POST',
      url: `${page}?token=${encodeURIComponent(token)}`,
      remoteAddress: `198.51.100.${address % 250}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      payload,
    });
  };
  const consentOf = async (id: string) =>
    (await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, id)))[0]?.consent;
  const loggedUrls = () =>
    logLines
      .join('')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { req?: { url?: string } }).req?.url)
      .filter((url): url is string => url !== undefined);

  it('is one request: the form itself, with no call of the JSON routes behind it', async () => {
    const request = await insertRequest(testApp.app.db, requesterId);
    logLines.length = 0;
    const answer = await send('/enter-link', request.token, 'action=decline');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/enter-link?token=${encodeURIComponent(request.token)}`);
    expect(await consentOf(request.id)).toBe('declined');
    expect(loggedUrls()).toEqual(['/enter-link']);
  });

  it('shares and sends the browser to the thank-you page, which names the place to that browser', async () => {
    const request = await insertRequest(testApp.app.db, requesterId);
    const answer = await send('/id/enter-link', request.token, 'action=share');
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(`/id/share?token=${encodeURIComponent(request.token)}&locate=1`);
    expect(answer.cookies.map((cookie) => cookie.name)).toContain('kabari-shared-here');
    expect(await consentOf(request.id)).toBe('sharing');
  });

  it("says why a form is refused, in the page's language, and changes nothing", async () => {
    const request = await insertRequest(testApp.app.db, requesterId, { consent: 'stopped' });
    const refused = await send('/id/enter-link', request.token, 'action=decline');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Anda telah berhenti berbagi lokasi melalui tautan ini.');
    expect(await consentOf(request.id)).toBe('stopped');

    const unknown = await send('/enter-link', 'no-such-token', 'action=opt-out');
    expect(unknown.statusCode).toBe(404);

    const invalid = await send('/enter-link', request.token, 'action=erase');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('This form was not filled in as expected. Please try again.');
  });
});
