// The recipient's side of a request: consent, IP Located then GPS Tracked as the requester's API sees
// it, live sharing and Stop, a refused permission and its retry, Stop and erase, Decline, and opt-out.
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { axeViolations } from '../support/accessibility';
import { test, expect } from '../support/fixtures';
import { startKabari, type KabariServer } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';

// A public address the bundled DB-IP database places in the United States (Google's resolver), sent as the
// client address through X-Forwarded-For to a Kabari that trusts its proxy.
const PUBLIC_IP = '8.8.8.8';
const MONAS = { latitude: -6.1754, longitude: 106.8272, accuracy: 20 };

interface RequestView {
  id: string;
  status: string;
  consent: string;
  url: string | null;
  lastPosition: { source: string; address: string | null; accuracyMeters: number | null } | null;
}

let kabari: KabariServer;
let subscriber: Subscriber;

async function api<T>(path: string, init: RequestInit = {}): Promise<{ status: number; data: T }> {
  const response = await fetch(`${kabari.url}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: subscriber.token, ...init.headers },
  });
  const body = (await response.json()) as { data: T };
  return { status: response.status, data: body.data };
}

async function requestOf(id: string): Promise<RequestView> {
  const { data } = await api<{ items: RequestView[] }>('/api/v1/requests?pageSize=50');
  const found = data.items.find((item) => item.id === id);
  if (!found) throw new Error(`request ${id} is not in the requester's history`);
  return found;
}

/** An email request to a fresh address, and the consent link its message carries (from the local outbox). */
async function emailRequest(locale: 'en' | 'id' = 'en'): Promise<{ id: string; email: string; token: string }> {
  const email = `recipient-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.com`;
  const sent = await api<{ request: RequestView }>('/api/v1/requests/email', {
    method: 'POST',
    body: JSON.stringify({ email, templateId: 'check-in', note: '', locale }),
  });
  expect(sent.status).toBe(200);
  const outbox = await outboxMessages(kabari.url, email);
  const token = /enter-link\?token=([\w-]+)/.exec(outbox[0]?.bodyText ?? '')?.[1];
  if (!token) throw new Error('the message carries no consent link');
  return { id: sent.data.request.id, email, token };
}

async function recipientPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { 'x-forwarded-for': PUBLIC_IP },
    ...options,
  });
  return context.newPage();
}

/**
 * The page's script runs. Before that its buttons are plain forms the server answers (recipient-pages.spec.ts): Share
 * then records the approximate place alone, without asking the browser for the position these tests follow.
 */
async function scriptRuns(page: Page): Promise<void> {
  await expect(page.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
}

async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

test.describe('the recipient’s consent', () => {
  test.beforeAll(async () => {
    // A server of its own (it must trust X-Forwarded-For from this machine, as from a proxy here) and a sign-up:
    // slower than one test's default.
    test.setTimeout(120_000);
    kabari = await startKabari({ TRUST_PROXY: '127.0.0.1', AUTH_THROTTLE_SCALE: '10' });
    subscriber = await signUpSubscriber(kabari.url, { displayName: 'Rina Wijaya' });
  });

  test.afterAll(async () => {
    await kabari?.stop();
  });

  test('a link: consent → IP Located → GPS Tracked, live sharing on until a time, then Stop sharing', async ({
    browser,
  }) => {
    const created = await api<{ request: RequestView }>('/api/v1/links', {
      method: 'POST',
      body: JSON.stringify({ title: 'Family', locale: 'en' }),
    });
    expect(created.status).toBe(200);
    const { id, url } = created.data.request;
    const page = await recipientPage(browser, { geolocation: MONAS, permissions: ['geolocation'] });
    await page.goto(url!.replace(/^https?:\/\/[^/]+/, kabari.url));

    await expect(page.getByRole('heading', { name: 'Rina Wijaya asks to see your location' })).toBeVisible();
    await expectNoAxeViolations(page);
    // Opened, nothing more: still pending.
    expect(await requestOf(id)).toMatchObject({ status: 'pending', consent: 'none', lastPosition: null });

    await scriptRuns(page);
    await page.getByRole('button', { name: 'Share my location' }).click();
    await expect(page).toHaveURL(/\/share\?token=/);
    await expect(page.getByRole('heading', { name: 'You shared your location with Rina Wijaya.' })).toBeVisible();
    await expect(page.getByText(/Your approximate place: .*United States/)).toBeVisible();
    await expect(page.getByText(/Your precise position \(accurate to about 20 m\)/)).toBeVisible();
    await expectNoAxeViolations(page);

    const tracked = await requestOf(id);
    expect(tracked).toMatchObject({ status: 'gps_tracked', consent: 'sharing' });
    expect(tracked.lastPosition).toMatchObject({ source: 'gps', accuracyMeters: 20 });
    expect(tracked.lastPosition?.address).toBe('Jakarta, Indonesia');
    const positions = await api<{ items: { source: string; address: string }[] }>(`/api/v1/requests/${id}/positions`);
    expect(positions.data.items.find((position) => position.source === 'ip')?.address).toMatch(/United States$/);

    await page.getByRole('button', { name: '15 minutes' }).click();
    await expect(page.getByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeVisible();
    await page.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(page.getByRole('heading', { name: /You stopped sharing/ })).toBeVisible();
    expect(await requestOf(id)).toMatchObject({ consent: 'stopped', status: 'gps_tracked' });
    await page.context().close();
  });

  test('permission refused → /location-failed → allowed and Try again → Stop and erase (in Indonesian)', async ({
    browser,
  }) => {
    const request = await emailRequest('id');
    const page = await recipientPage(browser, { geolocation: MONAS, locale: 'id-ID' });
    await page.goto(`${kabari.url}/id/enter-link?token=${request.token}`);
    await expect(page.getByRole('heading', { name: 'Rina Wijaya ingin melihat lokasi Anda' })).toBeVisible();
    await expectNoAxeViolations(page);

    await scriptRuns(page);
    await page.getByRole('button', { name: 'Bagikan lokasi saya' }).click();
    await expect(page).toHaveURL(/\/id\/location-failed\?token=[\w-]+&reason=denied$/);
    await expect(page.getByRole('heading', { name: 'Izin lokasi ditolak' })).toBeVisible();
    await expectNoAxeViolations(page);
    // Only the approximate place so far.
    expect(await requestOf(request.id)).toMatchObject({ status: 'ip_located', consent: 'sharing' });

    await page.context().grantPermissions(['geolocation']);
    await page.getByRole('button', { name: 'Coba lagi' }).click();
    await expect(page).toHaveURL(/\/id\/share\?token=/);
    await expect.poll(async () => (await requestOf(request.id)).status).toBe('gps_tracked');

    await page.getByRole('button', { name: 'Berhenti dan hapus' }).click();
    await page.getByRole('button', { name: 'Ya, hentikan dan hapus' }).click();
    await expect(page.getByRole('heading', { name: /sudah dihapus/ })).toBeVisible();
    expect(await requestOf(request.id)).toMatchObject({ consent: 'withdrawn', status: 'pending', lastPosition: null });
    const positions = await api<{ items: unknown[] }>(`/api/v1/requests/${request.id}/positions`);
    expect(positions.data.items).toEqual([]);
    await page.context().close();
  });

  test('Decline, and opt-out from the message’s link (a new request to that address is then refused)', async ({
    browser,
  }) => {
    const declined = await emailRequest();
    const page = await recipientPage(browser);
    await page.goto(`${kabari.url}/enter-link?token=${declined.token}`);
    await page.getByRole('button', { name: 'Decline' }).click();
    await expect(page.getByRole('heading', { name: 'You declined' })).toBeVisible();
    expect(await requestOf(declined.id)).toMatchObject({ consent: 'declined', status: 'pending', lastPosition: null });
    // The requester is told by email, in the same change: no need to watch the dashboard.
    const told = await outboxMessages(kabari.url, subscriber.email);
    expect(told.map((message) => message.subject)).toContain(`${declined.email} declined your location request`);

    const optOut = await emailRequest();
    await page.goto(`${kabari.url}/enter-link?token=${optOut.token}&action=opt-out`);
    await expect(page.getByRole('heading', { name: 'Stop all location requests to you' })).toBeVisible();
    await page.getByRole('button', { name: 'Yes, stop all requests' }).click();
    await expect(page.getByText('Done. You will not receive any more location requests from Kabari.')).toBeVisible();
    const again = await api<null>('/api/v1/requests/email', {
      method: 'POST',
      body: JSON.stringify({ email: optOut.email, templateId: 'check-in', note: '', locale: 'en' }),
    });
    expect(again.status).toBe(409);
    await page.context().close();
  });

  test('/location-failed offers Stop sharing, since the approximate place was already shared', async ({ browser }) => {
    const request = await emailRequest();
    const page = await recipientPage(browser, { geolocation: MONAS });
    await page.goto(`${kabari.url}/enter-link?token=${request.token}`);
    await scriptRuns(page);
    await page.getByRole('button', { name: 'Share my location' }).click();
    await expect(page).toHaveURL(/\/location-failed\?token=[\w-]+&reason=denied$/);
    expect(await requestOf(request.id)).toMatchObject({ status: 'ip_located', consent: 'sharing' });
    await page.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(page.getByRole('heading', { name: /You stopped sharing/ })).toBeVisible();
    expect(await requestOf(request.id)).toMatchObject({ consent: 'stopped' });
    await page.context().close();
  });

  test('the message’s opt-out link still works after the requester deleted the request', async ({ browser }) => {
    const request = await emailRequest();
    const deleted = await api<{ success: boolean }>(`/api/v1/requests/${request.id}`, {
      method: 'DELETE',
      body: '{}',
    });
    expect(deleted.status).toBe(200);
    const page = await recipientPage(browser);
    await page.goto(`${kabari.url}/enter-link?token=${request.token}&action=opt-out`);
    await page.getByRole('button', { name: 'Yes, stop all requests' }).click();
    await expect(page.getByText('Done. You will not receive any more location requests from Kabari.')).toBeVisible();
    const again = await api<null>('/api/v1/requests/email', {
      method: 'POST',
      body: JSON.stringify({ email: request.email, templateId: 'check-in', note: '', locale: 'en' }),
    });
    expect(again.status).toBe(409);
    await page.context().close();
  });
});
