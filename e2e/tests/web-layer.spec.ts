// The production build's web layer: internal files unreachable by any spelling of their path, and the browser
// features each page may use (Permissions-Policy) as Chromium itself reads them.
import http from 'node:http';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';

/** A request whose path goes on the wire exactly as written (a browser or fetch would normalise it first). */
function rawStatus(origin: string, method: string, rawPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${origin}/`, { method, path: rawPath, agent: false });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

/** What Chromium says the document may use. */
function allowed(page: Page, features: string[]): Promise<Record<string, boolean>> {
  return page.evaluate((names) => {
    const policy = (document as Document & { featurePolicy: { allowsFeature(name: string): boolean } }).featurePolicy;
    return Object.fromEntries(names.map((name) => [name, policy.allowsFeature(name)]));
  }, features);
}

const FEATURES = ['geolocation', 'payment', 'camera', 'microphone', 'usb', 'clipboard-write', 'screen-wake-lock'];

test.describe('the web layer of the production build', () => {
  test('serves no internal file of the build, however its path is spelled', async ({ baseURL }) => {
    const origin = baseURL as string;
    // Public files are served as they are.
    for (const url of ['/remotes/share/remoteEntry.js', '/remotes/search/mf-manifest.json', '/latest-build.json']) {
      expect([url, await rawStatus(origin, 'GET', url)]).toEqual([url, 200]);
    }
    const internal = ['/prerender/shells/index.html', '/remotes/share/prerender/routes.json'];
    const spellings = [
      (path: string) => path,
      (path: string) => `/${path}`,
      (path: string) => `/.${path}`,
      (path: string) => `/%2e${path}`,
      (path: string) => `/x/..${path}`,
      (path: string) => `/x/..%2f${path.slice(1)}`,
      (path: string) => `/x\\..${path}`,
      (path: string) => path.replace('prerender', 'Prerender'),
      (path: string) => path.replace('prerender', '%70rerender'),
      (path: string) => path.replace('/prerender/', '/./prerender/'),
      (path: string) => path.replace('/prerender/', '//prerender/'),
      (path: string) => path.replace('/prerender/', '/x/../prerender/'),
    ];
    const served: string[] = [];
    for (const path of internal) {
      for (const spell of spellings) {
        const url = spell(path);
        for (const method of ['GET', 'HEAD']) {
          const status = await rawStatus(origin, method, url);
          if (status < 400) served.push(`${method} ${url} → ${status}`);
        }
      }
    }
    for (const url of [
      '/../package.json',
      '/%2e%2e/server/dist/server.js',
      '/remotes/share/..%2f..%2f..%2fpackage.json',
    ]) {
      const status = await rawStatus(origin, 'GET', url);
      if (status < 400) served.push(`GET ${url} → ${status}`);
    }
    expect(served).toEqual([]);
  });

  test('lets the recipient’s pages, and only them, ask for the position; the microphone only to Kabari itself', async ({
    page,
  }) => {
    const policyErrors: string[] = [];
    page.on('console', (message) => {
      if (/permissions.?policy|feature policy|unrecognized feature/i.test(message.text())) {
        policyErrors.push(message.text());
      }
    });

    // A link that does not exist still shows the recipient's page (its invalid-link state). It opens in the
    // browsing-context group it was opened from (no opener policy: a second process start on a phone); every other
    // page keeps the site's same-origin opener policy.
    const recipient = await page.goto('/id/enter-link?token=not-a-real-link');
    expect(recipient!.headers()['cross-origin-opener-policy']).toBeUndefined();
    // Its plain forms post to itself: under no-referrer the browser would name their origin `null`, which the
    // cross-site check refuses. same-origin names ours and still gives no other site the address (the token).
    expect(recipient!.headers()['referrer-policy']).toBe('same-origin');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await allowed(page, FEATURES)).toEqual({
      geolocation: true,
      payment: false,
      camera: false,
      // The thank-you page, reached without a new document, records a voice reply.
      microphone: true,
      usb: false,
      'clipboard-write': false,
      // The thank-you page keeps the screen on while live sharing.
      'screen-wake-lock': true,
    });

    const other = await page.goto('/about-us');
    expect(other!.headers()['cross-origin-opener-policy']).toBe('same-origin');
    expect(other!.headers()['referrer-policy']).toBe('no-referrer');
    expect(await allowed(page, FEATURES)).toEqual({
      geolocation: false,
      // No Stripe keys here: no wallet button, so no payment either.
      payment: false,
      camera: false,
      // The dashboard, reached from any page without a new document, records voice notes.
      microphone: true,
      usb: false,
      'clipboard-write': true,
      'screen-wake-lock': false,
    });
    expect(policyErrors).toEqual([]);
  });

  test('gives a recipient who follows the logo home a new document, without the position', async ({ page }) => {
    await page.goto('/enter-link?token=not-a-real-link');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('load');
    await page.evaluate(() => Object.assign(window, { kabariSameDocument: true }));
    await page.locator('a.site-header__brand').click();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(() => page.evaluate(() => 'kabariSameDocument' in window)).toBe(false);
    expect((await allowed(page, ['geolocation'])).geolocation).toBe(false);
  });
});
