import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { markDocument, pageHydrated, sameDocument, startPublicPageApp } from '../support/app-helpers';

const pages = [
  { path: '/', text: 'Ask a relative where they are, with their consent' },
  { path: '/id/', text: 'Tanyakan lokasi kerabat Anda, dengan persetujuan mereka' },
  { path: '/enter-link?token=abc', text: 'Location request' },
  { path: '/id/enter-link', text: 'Permintaan lokasi' },
];

/** Holds the page's scripts back until released, as on a slow phone: its prerendered forms can be typed into. */
async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Opens a public page and leaves it untouched until it is quiet: loaded and painted, and its app not started. */
async function openPublicPageUnused(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  expect(await page.locator('script[src*="/main."]').count()).toBe(0);
}

test.describe('prerendered pages', () => {
  for (const { path, text } of pages) {
    test(`${path} reads before any script runs, and hydrates cleanly`, async ({ request, page }) => {
      const response = await request.get(path);
      // A recipient's page is rendered for its link (or for the lack of one) at each request: no cache keeps it.
      expect(response.headers()['cache-control']).toBe(path.includes('enter-link') ? 'no-store' : 'no-cache');
      const html = await response.text();
      expect(html).toContain(text);
      expect(html).toContain(path.startsWith('/id') ? '<html lang="id"' : '<html lang="en"');
      expect(html).not.toContain('kabari-page-->');

      const problems: string[] = [];
      page.on('console', (message) => {
        if (/hydrat|did not match|mismatch/i.test(message.text())) problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(String(error)));
      await page.goto(path);
      await expect(page.locator('main h1')).toHaveText(text);
      const recipient = path.includes('enter-link');
      // A recipient's page hydrates on load and says so; the home page's app starts on the visitor's first use.
      const hydrated = () =>
        recipient
          ? expect(page.locator('article[data-remote="share"][data-hydrated]')).toBeVisible()
          : pageHydrated(page);
      if (!recipient) await startPublicPageApp(page);
      await hydrated();
      expect(problems).toEqual([]);
      // Interactive then. The home page's language switch navigates on the client, keeping the page; a recipient's
      // page is a document of its own in each language, and the one the switch loads hydrates cleanly too.
      if (!recipient) await markDocument(page);
      await page.locator('.language-switch').click();
      await expect(page.locator('main h1')).not.toHaveText(text);
      if (recipient) await hydrated();
      else expect(await sameDocument(page), 'switched on the client').toBe(true);
      expect(problems).toEqual([]);
    });
  }

  // The recipient's pages start their app on load (the public pages wait for the visitor's first use).
  test("the app's scripts start only after the prerendered page has painted", async ({ page }) => {
    await page.addInitScript(() => {
      const seen = window as unknown as { entryAddedAt?: number };
      // Parser-inserted or added by a script, the entry's <script> element shows up here.
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of record.addedNodes) {
            if (node instanceof HTMLScriptElement && /\/recipient\.[0-9a-f]+\.js$/.test(node.src)) {
              seen.entryAddedAt ??= performance.now();
            }
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/enter-link?token=abc');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { entryAddedAt?: number }).entryAddedAt))
      .toBeDefined();
    const { entryAddedAt, firstPaint } = await page.evaluate(() => ({
      entryAddedAt: (window as unknown as { entryAddedAt?: number }).entryAddedAt,
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    }));
    expect(firstPaint).toBeGreaterThan(0);
    expect(entryAddedAt).toBeGreaterThanOrEqual(firstPaint!);
  });

  test("the home page starts the app on the visitor's first use, not on load; the page works meanwhile", async ({
    page,
  }) => {
    await openPublicPageUnused(page, '/id/');
    await expect(page.locator('link[rel="prefetch"][href*="/main."]')).toHaveCount(1);
    expect(await page.locator('link[rel="preload"][as="script"]').count()).toBe(0);
    // Find is on already (the page's first script holds a search pressed now until the app runs it).
    await expect(page.getByRole('button', { name: 'Cari' })).toBeEnabled();
    await expect(page.locator('header').getByRole('link', { name: 'Masuk' })).toHaveAttribute('href', '/id/#log-in');
    await page.getByLabel('Nomor ponsel').fill('812 3456 7890');
    // Filling the field focused it: that was a use. The app starts and takes what was typed.
    await expect(page.locator('header').getByRole('button', { name: 'Masuk' })).toBeVisible();
    await page.getByRole('button', { name: 'Cari' }).click();
    await expect(page.getByRole('dialog', { name: 'Tentang nomor ini' })).toBeVisible();
  });

  for (const [path, name, address] of [
    ['/', 'Log in', /127\.0\.0\.1:\d+\/$/],
    ['/id/faqs', 'Masuk', /\/id\/faqs$/],
  ] as const) {
    test(`${path}: the Log in link works before the app has started; the app starts and opens the dialog there`, async ({
      page,
    }) => {
      await openPublicPageUnused(page, path);
      await page.locator('header').getByRole('link', { name }).click();
      await expect(page.getByRole('dialog', { name })).toBeVisible();
      await expect(page).toHaveURL(address);
    });
  }

  test('a signed-in user is sent from a visitor-only page to the dashboard by the server, before any page shows', async ({
    request,
  }) => {
    const signedIn = { cookie: 'token=e2e-session' };
    for (const [path, target] of [
      ['/faqs', '/dashboard/'],
      ['/id/about-us', '/id/dashboard/'],
      ['/id/', '/id/dashboard/'],
    ] as const) {
      const response = await request.get(path, { headers: signedIn, maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location).toBe(target);
    }
    // The recipient's pages are for anyone.
    expect((await request.get('/enter-link?token=abc', { headers: signedIn, maxRedirects: 0 })).status()).toBe(200);
  });

  test('what is typed into a prerendered form before the scripts arrive is kept once they do', async ({ page }) => {
    const releaseScripts = await holdScripts(page);

    await page.goto('/id/', { waitUntil: 'commit' });
    await page.getByLabel('Nomor ponsel').fill('812 3456 7890');
    releaseScripts();
    const find = page.getByRole('button', { name: 'Cari' });
    await expect(find).toBeEnabled();
    await expect(page.getByLabel('Nomor ponsel')).toHaveValue('812 3456 7890');
    await find.click();
    // A valid Indonesian number: what the search holds is what was typed.
    await expect(page.getByRole('dialog', { name: 'Tentang nomor ini' })).toBeVisible();
  });

  test('a prerendered contact form keeps its early answers: only the fields left empty are wrong', async ({ page }) => {
    const releaseScripts = await holdScripts(page);

    await page.goto('/contact-us', { waitUntil: 'commit' });
    await page.getByLabel('Your name').fill('Dewi Lestari');
    await page.getByLabel('Topic').selectOption({ label: 'Billing, cancelling or a refund' });
    releaseScripts();
    const send = page.getByRole('button', { name: 'Send message' });
    await expect(send).toBeEnabled();
    await send.click();
    await expect(page.getByLabel('Your email address')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Your message')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Your name')).toHaveValue('Dewi Lestari');
    await expect(page.getByLabel('Your name')).not.toHaveAttribute('aria-invalid');
    await expect(page.getByLabel('Topic')).not.toHaveAttribute('aria-invalid');
  });

  test('the language switch clicked before the scripts arrive still remembers the choice', async ({
    page,
    context,
  }) => {
    await holdScripts(page);
    await page.goto('/about-us', { waitUntil: 'commit' });
    await page.locator('.language-switch').click();
    // The server remembered it and sent the browser on to the page's own address.
    await expect(page).toHaveURL(/\/id\/about-us$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'id');
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'locale')?.value).toBe('id');
  });

  test('without JavaScript the prerendered page is still readable and styled', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/id/');
    await expect(page.locator('main h1')).toHaveText('Tanyakan lokasi kerabat Anda, dengan persetujuan mereka');
    const fontSize = await page.locator('main h1').evaluate((element) => getComputedStyle(element).fontSize);
    expect(fontSize).toBe('32px');
    await context.close();
  });
});
