// The recipient's pages as a phone opens them from an SMS: light (no app runtime), complete from the server for
// their link, and usable without JavaScript.
import type { Browser, BrowserContextOptions } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { outboxMessages } from '../support/outbox';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';
import { linkWithVoiceNote } from '../support/voice-link';

let subscriber: Subscriber;

interface RequestView {
  id: string;
  status: string;
  consent: string;
  openedTime: string | null;
}

async function api<T>(baseURL: string, path: string, init: RequestInit = {}): Promise<{ status: number; data: T }> {
  const response = await fetch(`${baseURL}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: subscriber.token, ...init.headers },
  });
  const body = (await response.json()) as { data: T };
  return { status: response.status, data: body.data };
}

async function requestOf(baseURL: string, id: string): Promise<RequestView> {
  const { data } = await api<{ items: RequestView[] }>(baseURL, '/api/v1/requests?pageSize=50');
  const found = data.items.find((item) => item.id === id);
  if (!found) throw new Error(`request ${id} is not in the requester's history`);
  return found;
}

/** An email request to a fresh address, and the token of the consent link its message carries. */
async function emailRequest(baseURL: string): Promise<{ id: string; email: string; token: string }> {
  const email = `recipient-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`;
  const sent = await api<{ request: RequestView }>(baseURL, '/api/v1/requests/email', {
    method: 'POST',
    body: JSON.stringify({ email, templateId: 'check-in', note: '', locale: 'en' }),
  });
  expect(sent.status).toBe(200);
  const token = /enter-link\?token=([\w-]+)/.exec((await outboxMessages(baseURL, email))[0]?.bodyText ?? '')?.[1];
  if (!token) throw new Error('the message carries no consent link');
  return { id: sent.data.request.id, email, token };
}

async function phone(browser: Browser, baseURL: string, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 780 }, ...options });
  return { context, page: await context.newPage() };
}

test.describe('the recipient’s pages', () => {
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(60_000);
    subscriber = await signUpSubscriber(baseURL!, { displayName: 'Rina Wijaya' });
  });

  test('load React and the page only: not the app’s entry, its federation runtime or antd', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await phone(browser, baseURL!);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    for (const path of ['/enter-link?token=nothing-known', '/id/location-failed?token=x&reason=denied', '/share']) {
      scripts.length = 0;
      await page.goto(path);
      await expect(page.locator('main').getByRole('alert')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(scripts.some((script) => /^\/main\.[0-9a-f]+\.js$/.test(script))).toBe(false);
      expect(scripts.some((script) => /^\/recipient\.[0-9a-f]+\.js$/.test(script))).toBe(true);
      expect(scripts).toContain('/remotes/share/light/remoteEntry.js');
      expect(await page.evaluate(() => '__FEDERATION__' in window)).toBe(false);
      // antd's code names its class prefix `prefixCls` (a property name: minifying keeps it); none of the scripts
      // the page loaded carries it, and nothing of antd's (its classes, its CSS-in-JS styles) is in the document.
      for (const script of scripts) {
        expect(await (await context.request.get(script)).text(), `${path}: ${script}`).not.toContain('prefixCls');
      }
      await expect(
        page.locator('[class^="ant-"], [class*=" ant-"], style[data-css-hash], style[data-token-hash]'),
      ).toHaveCount(0);
    }
    await context.close();
  });

  test('the consent page arrives complete for its link, and opening it records only that it was opened', async ({
    browser,
    baseURL,
  }) => {
    const request = await emailRequest(baseURL!);
    const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
    await page.goto(`/id/enter-link?token=${request.token}`);
    await expect(page.getByRole('heading', { name: 'Rina Wijaya ingin melihat lokasi Anda' })).toBeVisible();
    await expect(page.getByText(/^Tautan ini berlaku sampai .* UTC\.$/)).toBeVisible();
    // The same page in English keeps the link.
    await expect(page.getByRole('link', { name: /English/ })).toHaveAttribute(
      'href',
      `/enter-link?token=${request.token}&hl=en`,
    );
    const opened = await requestOf(baseURL!, request.id);
    expect(opened).toMatchObject({ status: 'pending', consent: 'none' });
    expect(opened.openedTime).not.toBeNull();
    await context.close();
  });

  test('an unknown link says so in the server’s HTML', async ({ browser, baseURL }) => {
    const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
    await page.goto('/enter-link?token=no-such-link');
    await expect(page.getByRole('heading', { name: 'Invalid link!' })).toBeVisible();
    await context.close();
  });

  test('an address without a token says so in the server’s HTML, in either language, instead of checking forever', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
    for (const [path, title, checking] of [
      ['/enter-link', 'Invalid link!', 'Checking your link'],
      ['/id/enter-link', 'Tautan tidak valid!', 'Memeriksa tautan'],
      ['/share', 'Invalid link!', 'Loading…'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title }), path).toBeVisible();
      await expect(page.getByText(checking), path).toHaveCount(0);
    }
    await context.close();
  });

  test.describe('without JavaScript', () => {
    test('a voice note is in the server’s HTML, with its text, and plays in the browser’s own player', async ({
      browser,
      baseURL,
    }) => {
      const link = await linkWithVoiceNote(baseURL!, subscriber, { seconds: 3, text: 'Ini Rina', locale: 'id' });
      const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
      const audio: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/voice-note')) audio.push(request.url());
      });
      await page.goto(`/id/enter-link?token=${link.token}`);
      const player = page.locator('audio');
      await expect(player).toHaveAccessibleName('Pesan suara dari Rina Wijaya, 0:03');
      await expect(page.getByText('Rina Wijaya menulis: “Ini Rina”')).toBeVisible();
      expect(audio).toEqual([]);
      // The page runs no script of its own; the test plays the player as its Play button would.
      const duration = await player.evaluate(async (element: HTMLAudioElement) => {
        await element.play();
        element.pause();
        return element.duration;
      });
      expect(duration).toBeCloseTo(3, 1);
      expect(audio).toHaveLength(1);
      await context.close();
    });

    test('Decline is a plain form: the server declines and says so', async ({ browser, baseURL }) => {
      const request = await emailRequest(baseURL!);
      const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
      await page.goto(`/enter-link?token=${request.token}`);
      await page.getByRole('button', { name: 'Decline' }).click();
      await expect(page.getByRole('heading', { name: 'You declined' })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/enter-link\\?token=${request.token}$`));
      expect(await requestOf(baseURL!, request.id)).toMatchObject({ consent: 'declined', status: 'pending' });
      await context.close();
    });

    test('opt-out from the message’s link, in Indonesian: a new request to that address is then refused', async ({
      browser,
      baseURL,
    }) => {
      const request = await emailRequest(baseURL!);
      const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
      await page.goto(`/id/enter-link?token=${request.token}&action=opt-out`);
      await page.getByRole('button', { name: 'Ya, hentikan semua permintaan' }).click();
      await expect(
        page.getByText('Selesai. Anda tidak akan menerima permintaan lokasi lagi dari Kabari.'),
      ).toBeVisible();
      const again = await api<null>(baseURL!, '/api/v1/requests/email', {
        method: 'POST',
        body: JSON.stringify({ email: request.email, templateId: 'check-in', note: '', locale: 'en' }),
      });
      expect(again.status).toBe(409);
      await context.close();
    });

    test('Report abuse opens and is sent as plain forms', async ({ browser, baseURL }) => {
      const request = await emailRequest(baseURL!);
      const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
      await page.goto(`/enter-link?token=${request.token}`);
      await page.getByRole('button', { name: 'Report abuse' }).click();
      await page.getByLabel('Reason').selectOption('spam');
      await page.getByLabel('Details (optional)').fill('Not someone I know.');
      await page.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByText("Thank you. Your report was sent to Kabari's team.")).toBeVisible();
      // The consent is still the recipient's to give.
      await expect(page.getByRole('button', { name: 'Share my location' })).toBeVisible();
      await context.close();
    });

    test('Share records the approximate place and shows the thank-you page', async ({ browser, baseURL }) => {
      const request = await emailRequest(baseURL!);
      const { context, page } = await phone(browser, baseURL!, { javaScriptEnabled: false });
      await page.goto(`/enter-link?token=${request.token}`);
      await page.getByRole('button', { name: 'Share my location' }).click();
      await expect(page).toHaveURL(new RegExp(`/share\\?token=${request.token}&locate=1$`));
      await expect(page.getByRole('heading', { name: 'You shared your location with Rina Wijaya.' })).toBeVisible();
      expect(await requestOf(baseURL!, request.id)).toMatchObject({ consent: 'sharing' });
      // The server names what was found of the approximate place (this machine's address is in no IP database) to
      // this browser, as the page's script would have: told by a cookie only the server reads.
      const unknownPlace = page.getByText('Your approximate place could not be found from your network address.');
      await expect(unknownPlace).toBeVisible();
      const [cookie] = (await context.cookies()).filter((item) => item.name === 'kabari-shared-here');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      // Another browser holding the same link is not told.
      const other = await phone(browser, baseURL!, { javaScriptEnabled: false });
      await other.page.goto(`/share?token=${request.token}`);
      await expect(
        other.page.getByRole('heading', { name: 'You shared your location with Rina Wijaya.' }),
      ).toBeVisible();
      await expect(other.page.getByText('Nothing has been shared yet.')).toBeVisible();
      await expect(other.page.getByText(/approximate place/)).toHaveCount(0);
      await other.context.close();
      await context.close();
    });

    test('a form from another site is refused, and nothing changes', async ({ baseURL }) => {
      const request = await emailRequest(baseURL!);
      const response = await fetch(`${baseURL}/enter-link?token=${request.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: 'action=decline',
        redirect: 'manual',
      });
      expect(response.status).toBe(403);
      expect(await requestOf(baseURL!, request.id)).toMatchObject({ consent: 'none' });
    });
  });
});
