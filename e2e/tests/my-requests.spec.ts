// "Who can see me" (/my-requests): a person who received two requests from two requesters (one shared live, one
// waiting) proves their number through the outbox, sees both, presses Stop everything, and both requesters'
// dashboards show it within 5 seconds; the same through the plain forms with JavaScript off; the page under axe at
// 360 px in both languages.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { axeViolations } from '../support/accessibility';
import { signInAsSubscriber } from '../support/app-helpers';
import { expect, test } from '../support/fixtures';
import { startKabari, type KabariServer } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';

const NUMBER = '+6281234567890';
const PHONE = { width: 360, height: 780 };
const MONAS = { latitude: -6.1754, longitude: 106.8272, accuracy: 20 };

let kabari: KabariServer;
let rina: Subscriber;
let budi: Subscriber;

async function smsRequest(baseURL: string, subscriber: Subscriber): Promise<void> {
  const response = await fetch(`${baseURL}/api/v1/requests/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: subscriber.token },
    body: JSON.stringify({ number: NUMBER, templateId: 'check-in', note: '', locale: 'en' }),
  });
  expect(response.status).toBe(200);
}

/** The newest message to the number whose text matches. */
async function newestTo(pattern: RegExp): Promise<RegExpExecArray> {
  const messages = await outboxMessages(kabari.url, NUMBER);
  for (const message of messages) {
    const found = pattern.exec(message.bodyText);
    if (found) return found;
  }
  throw new Error(`no message to ${NUMBER} matches ${pattern}`);
}

async function dashboardOf(browser: Browser, subscriber: Subscriber): Promise<Page> {
  const context = await browser.newContext({ baseURL: kabari.url });
  await signInAsSubscriber(context, kabari.url, subscriber);
  const page = await context.newPage();
  await page.goto('/dashboard/');
  return page;
}

/**
 * axe on what a browser without JavaScript shows: axe itself needs script (its timers do not run where script is off),
 * so the same document is checked in a page where none of the page's own scripts runs.
 */
async function axeWithoutScript(browser: Browser, page: Page): Promise<string[]> {
  const html = (await page.content()).replace(/<script\b(?![^>]*application\/json)[^>]*>[\s\S]*?<\/script>/g, '');
  const context = await browser.newContext({ baseURL: kabari.url, viewport: PHONE });
  await context.route('**/*.js', (route) => route.abort());
  await context.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
  const copy = await context.newPage();
  await copy.goto(page.url());
  const found = await axeViolations(copy);
  await context.close();
  return found;
}

test.describe('who can see me', () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // One message per number every 3 hours, whoever sends: the first server takes Rina's request, and the second,
    // on a copy of its database without that send's slot, Budi's.
    const first = await startKabari({ AUTH_THROTTLE_SCALE: '10' });
    rina = await signUpSubscriber(first.url, { displayName: 'Rina Wijaya' });
    budi = await signUpSubscriber(first.url, { displayName: 'Budi Santoso' });
    await smsRequest(first.url, rina);
    const kept = first.dataDir;
    await first.stop({ keepData: true });
    kabari = await startKabari({ AUTH_THROTTLE_SCALE: '10' }, async (dataDir) => {
      fs.rmSync(path.join(dataDir, 'pglite'), { recursive: true, force: true });
      fs.cpSync(path.join(kept, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
      const { PGlite } = await import('@electric-sql/pglite');
      const db = new PGlite(path.join(dataDir, 'pglite'));
      await db.query('delete from send_limits');
      await db.close();
    });
    fs.rmSync(kept, { recursive: true, force: true });
    await smsRequest(kabari.url, budi);
  });

  test.afterAll(async () => {
    await kabari?.stop();
  });

  test('two requests, one live and one waiting: proven through the outbox, Stop everything, both dashboards within 5 s', async ({
    browser,
  }) => {
    // Rina's request is shared, live for 15 minutes.
    const [, rinaToken] = await newestTo(/Rina Wijaya[\s\S]*enter-link\?token=([\w-]+)/);
    const recipient = await browser.newContext({
      baseURL: kabari.url,
      viewport: PHONE,
      geolocation: MONAS,
      permissions: ['geolocation'],
    });
    const phone = await recipient.newPage();
    await phone.goto(`/enter-link?token=${rinaToken}`);
    await expect(phone.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
    await phone.getByRole('button', { name: 'Share my location' }).click();
    await phone.getByRole('button', { name: '15 minutes' }).click();
    await expect(phone.getByText(/^Live sharing is on until/)).toBeVisible();

    const rinaDashboard = await dashboardOf(browser, rina);
    const budiDashboard = await dashboardOf(browser, budi);
    await expect(rinaDashboard.getByTestId('request-row').first()).toContainText(/GPS Tracked|IP Located/);
    await expect(budiDashboard.getByTestId('request-row').first()).toContainText('Pending');

    // The page is linked from the consent page.
    await phone.getByRole('link', { name: /Who can see me/ }).click();
    await expect(phone).toHaveURL(/\/my-requests$/);
    await expect(phone.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
    await expect(phone.getByRole('link', { name: 'Quick exit' })).toBeInViewport();
    await phone.getByLabel('Your phone number or email address').fill(NUMBER);
    await phone.getByRole('button', { name: 'Send me a code' }).click();
    await expect(phone.getByLabel('The 6-digit code')).toBeVisible();
    const [, code] = await newestTo(/code to see the location requests sent to this number is (\d{6})/);
    await phone.getByLabel('The 6-digit code').fill(code!);
    await phone.getByRole('button', { name: 'Show my requests' }).click();

    await expect(phone.getByRole('heading', { name: 'Rina Wijaya asked' })).toBeVisible();
    await expect(phone.getByRole('heading', { name: 'Budi Santoso asked' })).toBeVisible();
    expect(await axeViolations(phone)).toEqual([]);
    await phone.getByRole('button', { name: 'Stop everything' }).click();
    await expect(phone.getByText('Done: 1 share(s) ended and 1 waiting request(s) declined.')).toBeVisible();

    // Live, without a reload.
    await expect(rinaDashboard.getByTestId('request-row').first()).toContainText('Stopped sharing', { timeout: 5_000 });
    await expect(budiDashboard.getByTestId('request-row').first()).toContainText('Declined', { timeout: 5_000 });

    // Quick exit ends the session: the list is gone for whoever opens the page next on this phone.
    const ended = phone.waitForRequest((request) => request.url().endsWith('/api/v1/my-requests/session/end'));
    await phone.route('https://www.google.com/**', (route) =>
      route.fulfill({ body: 'weather', contentType: 'text/plain' }),
    );
    await phone.getByRole('link', { name: 'Quick exit' }).click();
    await ended;
    await expect(phone).toHaveURL(/google\.com\/search\?q=weather/);
    const again = await recipient.newPage();
    await again.goto('/my-requests');
    await expect(again.getByLabel('Your phone number or email address')).toBeVisible();
    await recipient.close();
  });

  // After the test above, whose Stop everything ended both requests (Rina's share stopped, which can still be erased;
  // Budi's declined); alone, both are waiting. Either way one request is acted on with its own form, then everything.
  test('without JavaScript: proven through the outbox with the plain forms, one request and then everything acted on, Quick exit', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: kabari.url, viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/my-requests');
    await expect(page.getByRole('link', { name: 'Quick exit' })).toBeInViewport();
    await page.getByLabel('Your phone number or email address').fill(NUMBER);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await expect(page.getByLabel('The 6-digit code')).toBeVisible();
    // The address travelled in the form, never in the page's address.
    expect(page.url()).toBe(`${kabari.url}/my-requests`);
    const [, code] = await newestTo(/code to see the location requests sent to this number is (\d{6})/);
    await page.getByLabel('The 6-digit code').fill(code!);
    await page.getByRole('button', { name: 'Show my requests' }).click();

    const rina = page.getByRole('listitem', { name: 'Rina Wijaya asked' });
    await expect(rina).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'Budi Santoso asked' })).toBeVisible();
    expect(await axeWithoutScript(browser, page)).toEqual([]);

    const outcome = { Decline: 'You declined', 'Stop sharing': 'You stopped sharing' } as Record<string, string>;
    const action = rina.getByRole('button', { name: /^(Decline|Stop sharing|Stop and erase)$/ }).first();
    const name = (await action.textContent())!;
    await action.click();
    await expect(page.getByRole('status').filter({ hasText: 'Done.' })).toBeVisible();
    await expect(rina).toContainText(outcome[name] ?? 'You stopped and erased what you shared');

    await page.getByRole('button', { name: 'Stop everything' }).click();
    await expect(page.getByText(/^Done: \d share\(s\) ended and \d waiting request\(s\) declined\.$/)).toBeVisible();
    await expect(page.getByText(/^(Waiting for your answer|You share your location)$/)).toHaveCount(0);

    // The same session in Indonesian (its cookie is sent to both pages), and Quick exit as a plain link.
    await page.goto('/id/my-requests');
    await expect(page.getByRole('heading', { name: 'Rina Wijaya meminta' })).toBeVisible();
    expect(await axeWithoutScript(browser, page)).toEqual([]);
    // The server ends the session and sends the browser on (no further: this machine has no way out).
    const exit = page.waitForResponse((response) => response.url().endsWith('/id/my-requests/exit'));
    await page.getByRole('link', { name: 'Keluar cepat' }).click();
    const answer = await exit;
    expect(answer.status()).toBe(303);
    expect(answer.headers().location).toBe('https://www.google.com/search?q=weather');
    const again = await context.newPage();
    await again.goto('/my-requests');
    await expect(again.getByLabel('Your phone number or email address')).toBeVisible();
    await context.close();
  });

  for (const pagePath of ['/my-requests', '/id/my-requests']) {
    test(`${pagePath} is axe clean at 360 px, and keyboard-usable`, async ({ browser }) => {
      const context = await browser.newContext({ baseURL: kabari.url, viewport: PHONE });
      const page = await context.newPage();
      await page.goto(pagePath);
      await expect(page.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      const field = page.locator('#overview-address');
      await field.focus();
      await page.keyboard.type('someone@example.com');
      await page.keyboard.press('Enter');
      await expect(page.locator('#overview-code')).toBeVisible();
      expect(await axeViolations(page)).toEqual([]);
      await context.close();
    });
  }
});
