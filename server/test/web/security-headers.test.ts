import fs, { rmSync } from 'node:fs';
import path from 'node:path';
import { FAKE_PROVIDERS_ENV } from '../support/fake-providers';
import { buildTestApp, type TestApp } from '../support/test-app';
import { copyWebFixture } from '../support/web-fixture';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const RECIPIENT_PAGES = [
  '/enter-link?token=abc',
  '/id/enter-link',
  '/share/',
  '/id/share',
  '/location-failed',
  '/id/location-failed/',
];
const OTHER_PAGES = [
  '/',
  '/id/',
  '/about-us',
  '/dashboard/',
  '/id/dashboard/modules/subscription-expired',
  '/no/such/page',
];
// A refusal too (no session): an error answer keeps them.
const API_ANSWERS = [
  '/healthz',
  '/healthz?from=probe',
  '/readyz',
  '/api/v1/auth/publicKey',
  '/api/v1/auth/publicKey?x=1',
  '/api/v1/no-such-route',
  '/api/v1/personnal/subscribe/info',
];
const FILES = ['/runtime-config.json', '/site.css'];
// Off on every page: nothing of Kabari's films, or talks to devices.
const ALWAYS_OFF = ['camera', 'usb', 'serial', 'hid', 'midi', 'display-capture'];

/** The Permissions-Policy header as feature → allowlist. */
function permissions(headers: Record<string, unknown>): Map<string, string> {
  const header = headers['permissions-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(',')
      .map((entry) => entry.trim().split('=') as [string, string]),
  );
}

// What Stripe's dashboard gives an operator to prove the site to Apple: hex text, as here.
const APPLE_PAY_FILE = '7B227073704964223A2239373943394538';
const APPLE_PAY_PATH = '/.well-known/apple-developer-merchantid-domain-association';

describe('security headers', () => {
  let webRoot: string;
  let testApp: TestApp;
  let withProviders: TestApp;
  let plainHttp: TestApp;

  beforeAll(async () => {
    webRoot = copyWebFixture();
    const web = { SERVE_WEB: 'true', WEB_ROOT: webRoot };
    testApp = await buildTestApp('pglite', { ...web, PUBLIC_URL: 'https://kabari.example' });
    fs.writeFileSync(path.join(webRoot, 'apple-pay-domain-file'), APPLE_PAY_FILE);
    withProviders = await buildTestApp('pglite', {
      ...web,
      PUBLIC_URL: 'https://kabari.example',
      ...FAKE_PROVIDERS_ENV,
      APPLE_PAY_DOMAIN_FILE: path.join(webRoot, 'apple-pay-domain-file'),
    });
    plainHttp = await buildTestApp('pglite', { ...web, PUBLIC_URL: 'http://localhost:8080' });
    // Three apps: a few seconds each, more on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await Promise.all([testApp?.close(), withProviders?.close(), plainHttp?.close()]);
    rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (app: TestApp, url: string, headers: Record<string, string> = HTML) =>
    app.app.inject({ method: 'GET', url, headers });

  it('lets only the recipient pages ask for the position, and only Kabari itself for the microphone (voice messages)', async () => {
    for (const url of RECIPIENT_PAGES) {
      const response = await get(testApp, url);
      expect(response.statusCode).toBe(200);
      const policy = permissions(response.headers);
      expect([url, policy.get('geolocation')]).toEqual([url, '(self)']);
      expect([url, policy.get('microphone')]).toEqual([url, '(self)']);
      // The thank-you page keeps the screen on while live sharing.
      expect([url, policy.get('screen-wake-lock')]).toEqual([url, '(self)']);
      expect([url, policy.get('payment')]).toEqual([url, '()']);
      for (const feature of ALWAYS_OFF) expect([url, feature, policy.get(feature)]).toEqual([url, feature, '()']);
    }
    for (const url of OTHER_PAGES) {
      const response = await get(testApp, url);
      expect(response.statusCode).toBe(200);
      const policy = permissions(response.headers);
      expect([url, policy.get('geolocation')]).toEqual([url, '()']);
      expect([url, policy.get('microphone')]).toEqual([url, '(self)']);
      expect([url, policy.get('screen-wake-lock')]).toEqual([url, '()']);
      for (const feature of ALWAYS_OFF) expect([url, feature, policy.get(feature)]).toEqual([url, feature, '()']);
      // The dashboard's "copy link" writes to the clipboard.
      expect([url, policy.get('clipboard-write')]).toEqual([url, '(self)']);
    }
  });

  it("turns every feature off for the files, which are no page's document", async () => {
    for (const url of FILES) {
      const policy = permissions((await get(testApp, url, { accept: '*/*' })).headers);
      for (const [feature, allowlist] of policy) expect([url, feature, allowlist]).toEqual([url, feature, '()']);
      expect(policy.get('geolocation')).toBe('()');
      expect(policy.get('payment')).toBe('()');
    }
  });

  it("allows payment only to Stripe's wallet frame, only on the pages that can open the payment dialog, only with Stripe configured", async () => {
    // Without Stripe there is no wallet button: payment stays off everywhere.
    expect(permissions((await get(testApp, '/')).headers).get('payment')).toBe('()');
    for (const url of OTHER_PAGES) {
      const policy = permissions((await get(withProviders, url)).headers);
      expect([url, policy.get('payment')]).toEqual([url, '("https://js.stripe.com")']);
    }
    for (const url of RECIPIENT_PAGES) {
      expect([url, permissions((await get(withProviders, url)).headers).get('payment')]).toEqual([url, '()']);
    }
    // An API answer lets nothing run at all (below), so it names no feature.
    expect((await get(withProviders, '/healthz', {})).headers['permissions-policy']).toBeUndefined();
  });

  it('answers the API with the headers of an API: nothing may run, load or frame it; no page-only headers', async () => {
    for (const url of API_ANSWERS) {
      const { headers } = await get(testApp, url, {});
      expect([url, headers['content-security-policy']]).toEqual([url, "default-src 'none';frame-ancestors 'none'"]);
      expect([url, headers['x-content-type-options']]).toEqual([url, 'nosniff']);
      expect([url, headers['referrer-policy']]).toEqual([url, 'no-referrer']);
      expect([url, headers['x-frame-options']]).toEqual([url, 'DENY']);
      expect([url, headers['cross-origin-resource-policy']]).toEqual([url, 'same-origin']);
      for (const pageOnly of [
        'permissions-policy',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'x-xss-protection',
      ]) {
        expect([url, pageOnly, headers[pageOnly]]).toEqual([url, pageOnly, undefined]);
      }
    }
    // The API's documentation is a page: it keeps the page headers.
    const docs = await get(testApp, '/api/docs/static/index.html');
    expect(String(docs.headers['content-security-policy'])).toContain("default-src 'self'");
    // A page whose path only begins like a probe's is a page.
    const lookalike = await get(testApp, '/healthzone');
    expect(String(lookalike.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it('lets the configured payment providers load their scripts and frames (CSP), and nothing else', async () => {
    const csp = String((await get(withProviders, '/')).headers['content-security-policy']);
    const directive = (name: string) => csp.split(';').find((part) => part.trim().startsWith(`${name} `)) ?? '';
    expect(directive('script-src')).toContain('https://js.stripe.com');
    expect(directive('frame-src')).toContain('https://js.stripe.com');
    expect(directive('frame-src')).toContain('https://hooks.stripe.com');
    expect(directive('connect-src')).toContain('https://api.stripe.com');
    expect(directive('script-src')).toContain('https://*.paypal.com');
    expect(directive('frame-src')).toContain('https://*.paypal.com');
    const without = String((await get(testApp, '/')).headers['content-security-policy']);
    expect(without).not.toMatch(/stripe|paypal/);
    expect(without).toContain("frame-src 'self'");
  });

  it('keeps CSP, nosniff, no-referrer and frame refusal on every page and file', async () => {
    for (const url of [...RECIPIENT_PAGES, ...OTHER_PAGES, ...FILES]) {
      const { headers } = await get(testApp, url);
      expect([url, headers['x-content-type-options']]).toEqual([url, 'nosniff']);
      expect([url, headers['referrer-policy']]).toEqual([url, 'no-referrer']);
      const csp = String(headers['content-security-policy']);
      expect([url, csp]).toEqual([url, expect.stringContaining("default-src 'self'")]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("script-src 'self'");
    }
    // The site's pages open in a browsing-context group of their own (a recipient's page rendered for its link does
    // not: e2e/tests/web-layer.spec.ts, on the real build).
    for (const url of OTHER_PAGES) {
      expect([url, (await get(testApp, url)).headers['cross-origin-opener-policy']]).toEqual([url, 'same-origin']);
    }
  });

  it("serves Apple Pay's domain file where the operator gave one (Stripe's wallet), and no other file of a dot folder", async () => {
    const served = await get(withProviders, APPLE_PAY_PATH, {});
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.body).toBe(APPLE_PAY_FILE);
    // Elsewhere, and without a file, such a path is any unknown address: the app's page, never a file.
    for (const [app, url] of [
      [testApp, APPLE_PAY_PATH],
      [withProviders, '/.well-known/apple-pay-domain-file'],
    ] as const) {
      const other = await get(app, url, {});
      expect(other.headers['content-type']).toMatch(/^text\/html/);
      expect(other.body).not.toContain(APPLE_PAY_FILE);
    }
  });

  it('sends HSTS only when the public address is https', async () => {
    for (const url of ['/', '/enter-link', '/healthz', '/site.css']) {
      const secure = await get(testApp, url);
      expect([url, secure.headers['strict-transport-security']]).toEqual([url, 'max-age=31536000; includeSubDomains']);
      expect([url, (await get(plainHttp, url)).headers['strict-transport-security']]).toEqual([url, undefined]);
    }
  });
});
