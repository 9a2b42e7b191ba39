// Nothing about the person asked is recorded before they consent: a fresh browser opens a new consent link and
// stays on the consent screen; afterwards neither its user agent nor the link's token is in the database or in the
// server's log.
import { randomBytes } from 'node:crypto';
import { test, expect } from '../support/fixtures';
import { startKabari, type KabariServer } from '../support/kabari-server';
import { storedRows, whereStored } from '../support/stored-rows';
import { signUpSubscriber } from '../support/subscriber';

let kabari: KabariServer | undefined;

test.afterAll(async () => {
  await kabari?.stop();
});

test('opening a consent link without answering leaves no trace of the visitor in the database or the log', async ({
  browser,
}) => {
  // Its own server (its database and its log are the evidence) and a sign-up: slower than one test's default.
  test.setTimeout(180_000);
  // At debug every answered request has its line, the reads that succeeded included (at info those are left out).
  kabari = await startKabari({ LOG_LEVEL: 'debug' });
  const subscriber = await signUpSubscriber(kabari.url, { displayName: 'Rina Wijaya' });
  const created = await fetch(`${kabari.url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: subscriber.token },
    body: JSON.stringify({ title: 'Weekend', locale: 'en' }),
  });
  expect(created.status).toBe(200);
  const { id, url } = ((await created.json()) as { data: { request: { id: string; url: string } } }).data.request;
  const token = new URL(url).searchParams.get('token')!;
  expect(token).toMatch(/^[\w-]{32}$/);

  // A user agent no other browser has: any copy of it anywhere is this visit's.
  const userAgent = `Mozilla/5.0 (Linux; Android 14; Pixel 8) KabariPrivacyProbe/${randomBytes(8).toString('hex')}`;
  const context = await browser.newContext({ userAgent, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const reports: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/locate/userAgent')) reports.push(request.url());
  });
  await page.goto(`${kabari.url}/enter-link?token=${token}&source=sms`);
  await expect(page.getByRole('heading', { name: 'Rina Wijaya asks to see your location' })).toBeVisible();
  // Everything a page load schedules has run: the load event, then the browser's idle time (where the visitor
  // report used to go), twice over, and the network has gone quiet.
  await page.waitForLoadState('load');
  for (let round = 0; round < 3; round += 1) {
    await page.evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
    );
    await page.waitForLoadState('networkidle');
  }
  await expect(page.getByRole('button', { name: 'Share my location' })).toBeVisible();
  expect(reports).toEqual([]);
  // No visitor id either: it would be a persistent identifier set before consent.
  expect((await context.cookies()).map((cookie) => cookie.name).filter((name) => name.includes('Visitor_Id'))).toEqual(
    [],
  );
  await context.close();

  await kabari.stop({ keepData: true });
  const log = kabari.output();
  const rows = await storedRows(kabari.dataDir);
  try {
    // The request itself, as the requester made it: opened, nothing more.
    const request = rows.location_requests?.find((row) => row.id === id);
    expect(request).toMatchObject({ status: 'pending', consent: 'none' });
    expect(request?.opened_at).not.toBeNull();

    expect(whereStored(rows, userAgent)).toEqual([]);
    expect(whereStored(rows, 'KabariPrivacyProbe')).toEqual([]);
    // The token is in no stored row: the request is found by its hash, and the requester's copy of the link is
    // sealed under the server's secret.
    expect(whereStored(rows, token)).toEqual([]);
    expect(rows.visitor_reports).toEqual([]);

    // The page was rendered for its link by the server (no call of its own to the API): its request is logged
    // without the query string that carries the token.
    expect(log).toContain('"url":"/enter-link"');
    expect(log).not.toContain(token);
    expect(log).not.toContain('KabariPrivacyProbe');
    // The client's address is logged cut to its network (127.0.0.1 → 127.0.0.0).
    expect(log).toContain('"remoteAddress":"127.0.0.0"');
    expect(log).not.toContain('"remoteAddress":"127.0.0.1"');
  } finally {
    const { rmSync } = await import('node:fs');
    rmSync(kabari.dataDir, { recursive: true, force: true });
    kabari = undefined;
  }
});
