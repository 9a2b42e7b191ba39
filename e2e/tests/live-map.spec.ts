import type { BrowserContext, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { signInAsSubscriber } from '../support/app-helpers';
import { signUpSubscriber } from '../support/subscriber';

// Monas, Central Jakarta. The recipient browses from 127.0.0.1, which has no place in the DB-IP database: the
// request goes from Pending straight to GPS Tracked (the IP step is covered by the server's tests).
const RECIPIENT_POSITION = { latitude: -6.1754, longitude: 106.8272, accuracy: 15 };

/** A trackable link made through the API by the given subscriber. */
async function createLink(baseURL: string, token: string, title: string, locale: 'en' | 'id') {
  const created = await fetch(new URL('/api/v1/links', baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ title, locale }),
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { data: { request: { id: string; url: string } } }).data.request;
}

/** The link's consent page, on this test server, in the recipient's own browser context. */
async function openLink(recipientContext: BrowserContext, baseURL: string, url: string) {
  const recipient = await recipientContext.newPage();
  const link = new URL(url);
  await recipient.goto(new URL(`${link.pathname}${link.search}`, baseURL).toString());
  // The page's script runs: Share then also asks the browser for the position (a tap before it is a plain form).
  await expect(recipient.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
  return recipient;
}

/** A phone's screen: the recipient's page is opened from an SMS. */
const PHONE_VIEWPORT = { width: 360, height: 740 };

/**
 * Before the recipient's pages load: a record of the screen wake locks the browser gives them (the real locks, only
 * watched).
 */
async function watchWakeLocks(recipientContext: BrowserContext) {
  await recipientContext.addInitScript(() => {
    const record = { locks: [] as WakeLockSentinel[] };
    Object.assign(window, { kabariWakeLocks: record });
    if (!('wakeLock' in navigator)) return;
    const request = navigator.wakeLock.request.bind(navigator.wakeLock);
    navigator.wakeLock.request = async (type) => {
      const lock = await request(type);
      record.locks.push(lock);
      return lock;
    };
  });
}

/** The page hidden (the phone locked) or shown again, as the browser says it: its visibility and the event. */
async function setVisibility(recipient: Page, state: 'hidden' | 'visible') {
  await recipient.evaluate((hidden) => {
    if (hidden) {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    } else {
      // The browser's own answers again.
      delete (document as { visibilityState?: unknown }).visibilityState;
      delete (document as { hidden?: unknown }).hidden;
    }
    document.dispatchEvent(new Event('visibilitychange'));
  }, state === 'hidden');
}

/** Of each wake lock the page was given, in order: whether it is still held. */
function wakeLocksHeld(recipient: Page) {
  return recipient.evaluate(() =>
    (window as unknown as { kabariWakeLocks: { locks: WakeLockSentinel[] } }).kabariWakeLocks.locks.map(
      (lock) => !lock.released,
    ),
  );
}

test('the requester sees the recipient share live: GPS Tracked, marker and address on the map, no reload', async ({
  browser,
  page,
  context,
  baseURL,
}) => {
  const subscriber = await signUpSubscriber(baseURL!);
  const request = await createLink(baseURL!, subscriber.token, 'Mum', 'en');

  await signInAsSubscriber(context, baseURL!, subscriber);
  const stream = page.waitForResponse((response) => response.url().includes('/api/v1/locate/events'));
  await page.goto('/dashboard/');
  const row = page.getByTestId('request-row').filter({ hasText: 'Mum' });
  await expect(row).toContainText('Pending');
  expect((await stream).status()).toBe(200);
  // Anything that reloads the page loses this.
  await page.evaluate(() => Object.assign(window, { kabariNotReloaded: true }));

  const recipientContext = await browser.newContext({
    geolocation: RECIPIENT_POSITION,
    permissions: ['geolocation', 'screen-wake-lock'],
    viewport: PHONE_VIEWPORT,
  });
  await watchWakeLocks(recipientContext);
  try {
    const recipient = await openLink(recipientContext, baseURL!, request.url);
    await recipient.getByRole('button', { name: 'Share my location' }).click();

    await expect(row).toContainText(/IP Located|GPS Tracked/);
    await row.getByRole('button', { name: 'Show on map' }).click();
    const map = page.getByTestId('live-map');
    await expect(map.getByRole('heading', { name: 'Location map: Mum' })).toBeVisible();

    await expect(row).toContainText('GPS Tracked');
    await expect(map.getByTestId('live-map-source')).toContainText('GPS');
    await expect(map.locator('.live-map__marker')).toBeVisible();
    await expect(map.getByTestId('live-map-address')).not.toHaveText('Address unknown');
    await expect(map.getByText('The person sharing sees when you look at this map, and how often.')).toBeVisible();
    expect(await axeViolations(page), 'the live map').toEqual([]);
    await expect(recipient).toHaveURL(/\/share/);

    // Who looked: the recipient's page, asking again as it does every half minute (here by loading anew), says the
    // requester has the map open now.
    await expect(recipient.getByTestId('who-looked')).toBeVisible();
    await recipient.reload();
    await expect(recipient.getByTestId('who-looked')).toHaveText(
      'Rina E2E is looking at your position now (1 time today).',
    );
    expect(await axeViolations(recipient), 'the thank-you page with who looked').toEqual([]);

    // Live sharing: the requester's badge comes on, with its end time as the latest it can last.
    await recipient.getByRole('button', { name: '15 minutes' }).click();
    await expect(recipient.getByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeVisible();
    await expect(map.getByTestId('live-badge')).toBeVisible();
    await expect(map.getByText(/^Sharing live until .+ at the latest\./)).toBeVisible();
    // How old the latest position is, on the requester's map.
    await expect(map.getByTestId('live-map-age')).toHaveText(/^(just now|\d+ seconds? ago)$/);
    await expect(map.getByText('2 positions on the trail')).toBeVisible();

    // The screen is kept on while live: the switch is on, and the page holds a wake lock.
    await expect(recipient.getByRole('switch', { name: 'Keep the screen on' })).toBeChecked();
    await expect(
      recipient.getByText(
        'Locking the phone pauses sharing; if it stays locked for about 2 minutes, live sharing stops.',
      ),
    ).toBeVisible();
    await expect.poll(() => wakeLocksHeld(recipient)).toEqual([true]);
    expect(await axeViolations(recipient), 'the thank-you page while live').toEqual([]);
    // The phone locks and unlocks. Headless Chromium keeps every page visible (freezing it through the DevTools
    // protocol, minimising its window or opening another tab in front change nothing), so the page is told, as the
    // browser would tell it: its visibility reads hidden, then visible again, each with a visibilitychange. The wake
    // locks are the browser's own. The emulated position does not move, so the watch gives nothing new while hidden.
    await setVisibility(recipient, 'hidden');
    await expect.poll(() => wakeLocksHeld(recipient)).toEqual([false]);
    const sentOnShow = recipient.waitForRequest(
      (sent) => sent.method() === 'POST' && /\/api\/v1\/share\/links\/[^/]+\/positions$/.test(sent.url()),
    );
    await setVisibility(recipient, 'visible');
    // The page asks for a position on being shown. The browser answers from its last fix only if that is younger than
    // 10 s; otherwise it waits for the device's next fix, which a phone's GPS soon gives but an emulated position never
    // does: the device gives one here, as a phone would (the same place, so the map's address stays). The watch gets
    // it too, and the first of the two goes at once.
    await recipientContext.setGeolocation(RECIPIENT_POSITION);
    expect((await (await sentOnShow).response())?.status()).toBe(200);
    // Let go when hidden, asked for again when shown.
    await expect.poll(() => wakeLocksHeld(recipient)).toEqual([false, true]);
    await expect(map.getByText('3 positions on the trail')).toBeVisible();
    await expect(map.getByTestId('live-badge')).toBeVisible();
    // The recipient withdraws the browser's location permission: its live watch errors. The page ends the live
    // window, and the requester's badge goes off at once, not at the end time.
    await recipientContext.clearPermissions();
    await expect(recipient.getByText(/^Live sharing stopped: User denied location permission\./)).toBeVisible();
    // Live sharing over: the screen is no longer kept on.
    await expect.poll(() => wakeLocksHeld(recipient)).toEqual([false, false]);
    await expect(map.getByTestId('live-badge')).toBeHidden();
    await expect(map.getByText(/^Sharing live until/)).toBeHidden();
    // And why: the page told the server.
    await expect(map.getByTestId('live-ended')).toHaveText(
      /^Live sharing ended early \(.+\): the recipient turned off location access for Kabari\.$/,
    );
    // Consent is kept: what was shared stays on the map, and the row still says sharing.
    await expect(map.getByTestId('live-map-source')).toContainText('GPS');
    await expect(row).toContainText('Sharing');
  } finally {
    await recipientContext.close();
  }
  expect(await page.evaluate(() => (window as { kabariNotReloaded?: boolean }).kabariNotReloaded)).toBe(true);
  // What the map shows is what was stored: the browser's positions only
  const positions = await fetch(new URL(`/api/v1/requests/${request.id}/positions`, baseURL), {
    headers: { authorization: subscriber.token },
  });
  const { items } = ((await positions.json()) as { data: { items: { source: string }[] } }).data;
  // (the first one, and the live share's before the permission was withdrawn).
  expect(items.length).toBeGreaterThanOrEqual(1);
  expect(items.filter((position) => position.source !== 'gps')).toEqual([]);
});

test('the history writes the shared place in the reader’s language, and the recipient sees who looked (/id)', async ({
  browser,
  page,
  context,
  baseURL,
}) => {
  const subscriber = await signUpSubscriber(baseURL!);
  const request = await createLink(baseURL!, subscriber.token, 'Ibu', 'id');

  // Central Amsterdam: the country's name differs between the languages (Netherlands / Belanda).
  const recipientContext = await browser.newContext({
    geolocation: { latitude: 52.3731, longitude: 4.8922, accuracy: 20 },
    permissions: ['geolocation', 'screen-wake-lock'],
    viewport: PHONE_VIEWPORT,
  });
  await watchWakeLocks(recipientContext);
  try {
    const recipient = await openLink(recipientContext, baseURL!, request.url);
    await recipient.getByRole('button', { name: 'Bagikan lokasi saya' }).click();
    await expect(recipient).toHaveURL(/\/id\/share/);
    await expect(recipient.getByTestId('who-looked')).toHaveText('Rina E2E belum melihat posisi Anda.');

    await signInAsSubscriber(context, baseURL!, subscriber);
    await page.goto('/id/dashboard/');
    const row = page.getByTestId('request-row').filter({ hasText: 'Ibu' });
    await expect(row).toContainText('Lokasi GPS');
    await expect(row.getByTestId('request-address')).toHaveText('Amsterdam, Belanda');
    await row.getByRole('button', { name: 'Lihat di peta' }).click();
    const map = page.getByTestId('live-map');
    await expect(map.getByTestId('live-map-address')).toHaveText('Amsterdam, Belanda');
    await expect(
      map.getByText('Orang yang membagikan lokasinya dapat melihat kapan dan seberapa sering Anda membuka peta ini.'),
    ).toBeVisible();
    // How old the position is, in Indonesian; live sharing keeps the screen on, said in Indonesian too.
    await expect(map.getByTestId('live-map-age')).toHaveText(/^(baru saja|\d+ detik yang lalu|\d+ menit yang lalu)$/);
    await recipient.getByRole('button', { name: '15 menit' }).click();
    await expect(recipient.getByRole('switch', { name: 'Biarkan layar tetap menyala' })).toBeChecked();
    await expect(recipient.getByText(/^Mengunci ponsel menjeda berbagi;/)).toBeVisible();
    await expect.poll(() => wakeLocksHeld(recipient)).toEqual([true]);
    await expect(map.getByTestId('live-badge')).toBeVisible();

    // Closed and opened again: a second opening today.
    await map.getByRole('button', { name: 'Tutup peta' }).click();
    await row.getByRole('button', { name: 'Lihat di peta' }).click();
    await expect(map.getByTestId('live-map-address')).toHaveText('Amsterdam, Belanda');
    await expect
      .poll(async () => {
        await recipient.reload();
        return recipient.getByTestId('who-looked').textContent();
      })
      .toBe('Rina E2E sedang melihat posisi Anda (2 kali hari ini).');
  } finally {
    await recipientContext.close();
  }
});
