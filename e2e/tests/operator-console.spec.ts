// The operator's console (remote-operator) in the production build: loaded on its own routes only, its screens
// accessible in both languages at a phone's width and a desk's.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { openLoginFromHeader, signInAsSubscriber } from '../support/app-helpers';
import { repoRoot, startKabari, type KabariServer } from '../support/kabari-server';
import { linkWithVoiceNote } from '../support/voice-link';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';

const operatorRemote = /\/remotes\/operator\//;

/** Every URL the page asked for while `visit` ran. */
async function requestsDuring(page: Page, visit: () => Promise<void>): Promise<string[]> {
  const urls: string[] = [];
  const record = (request: { url(): string }) => urls.push(request.url());
  page.on('request', record);
  await visit();
  // Whatever the page starts once idle (the visitor report, prefetches) is counted too.
  await page.waitForLoadState('networkidle');
  page.off('request', record);
  return urls;
}

test.describe("the operator's console", () => {
  test('is fetched on the console’s routes only: not on the home page, a public page or a recipient page', async ({
    page,
    baseURL,
  }) => {
    const requester = await signUpSubscriber(baseURL!, { displayName: 'Rina Wijaya' });
    const link = await linkWithVoiceNote(baseURL!, requester, { seconds: 3 });
    for (const path of ['/', '/id/faqs', `/enter-link?token=${link.token}`, `/id/enter-link?token=${link.token}`]) {
      const urls = await requestsDuring(page, async () => {
        await page.goto(path);
      });
      expect(
        urls.filter((url) => operatorRemote.test(url)),
        path,
      ).toEqual([]);
      expect(urls.length, `${path} loaded something`).toBeGreaterThan(0);
    }
    const urls = await requestsDuring(page, async () => {
      await page.goto('/operator');
      await expect(page.getByRole('heading', { level: 1, name: 'Operator sign-in' })).toBeVisible();
    });
    expect(urls.some((url) => url.endsWith('/remotes/operator/mf-manifest.json'))).toBe(true);
  });

  test('answers as no public page: noindex, not in the sitemap, disallowed to robots', async ({ request }) => {
    const page = await request.get('/operator/sign-in', { headers: { accept: 'text/html' } });
    expect(page.headers()['x-robots-tag']).toBe('noindex, nofollow');
    const robots = (await (await request.get('/robots.txt')).text()).split('\n');
    expect(robots).toEqual(expect.arrayContaining(['Disallow: /operator', 'Disallow: /id/operator']));
    expect(await (await request.get('/sitemap.xml')).text()).not.toContain('/operator');
  });

  test('sends anyone without an operator session to sign-in, in the language of the address', async ({ page }) => {
    await page.goto('/id/operator/reports/some-report');
    await expect(page.getByRole('heading', { level: 1, name: 'Masuk sebagai operator' })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/id/operator/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/id/operator/reports/some-report');
    // The console's own frame: no subscriber's header or Log in.
    await expect(page.locator('.site-header')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /English/ })).toBeVisible();
  });

  test('the sign-in page passes axe at 360 px and desktop, in both languages', async ({ page }) => {
    await axeEverywhere(page, '/operator/sign-in', { en: /^Operator sign-in$/, id: /^Masuk sebagai operator$/ });
  });
});

const RECIPIENT_POSITION = { latitude: -6.1754, longitude: 106.8272, accuracy: 15 };
const OPERATOR_EMAIL = 'desk@kabari.example';
const OPERATOR_PASSWORD = 'correct horse battery staple';

/** The authenticator's code for the step `stepsAgo` periods before now (0: the current one). */
function totpCode(secret: string, stepsAgo = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() - stepsAgo * totp.period * 1000 });
}

/** The console's screens at a phone's width and a desk's, in both languages: none has an axe finding. */
async function axeEverywhere(page: Page, path: string, heading: { en: RegExp; id: RegExp }): Promise<void> {
  // Each screen in both languages and at both widths, in two loads rather than four: Indonesian, whose texts run
  // longer, on a phone; English on a desktop.
  for (const [locale, width] of [
    ['id', 360],
    ['en', 1280],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${locale === 'id' ? '/id' : ''}${path}`);
    await expect(page.getByRole('heading', { level: 1, name: heading[locale] })).toBeVisible();
    await expect(page.locator('.console-loading')).toHaveCount(0);
    expect(await axeViolations(page), `${path} (${locale}, ${width} px)`).toEqual([]);
  }
}

/** The console sends the password RSA-encrypted with the server's key (one 2048-bit block, base64), never as typed. */
function expectEncrypted(body: { password?: unknown }) {
  expect(body.password).not.toBe(OPERATOR_PASSWORD);
  // jsencrypt drops a leading zero byte now and then, so the length is not always 344.
  expect(body.password).toMatch(/^[A-Za-z0-9+/]{330,344}={0,2}$/);
}

test.describe('a report leads to a decision', () => {
  let kabari: KabariServer;
  let enrolToken: string;
  let requester: Subscriber;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // The operator is added with the documented command, against the embedded database before the server opens it.
    kabari = await startKabari({ AUTH_THROTTLE_SCALE: '10' }, async (dataDir) => {
      const { stdout } = await promisify(execFile)(
        'npm',
        ['run', '--silent', 'operator', '--', 'add', OPERATOR_EMAIL],
        {
          cwd: repoRoot,
          env: { ...process.env, DATA_DIR: dataDir, KABARI_SKIP_BUILD: '1' },
        },
      );
      const token = /\/operator\/enrol#token=([\w-]+)/.exec(stdout)?.[1];
      if (!token) throw new Error(`the command printed no enrolment link:\n${stdout}`);
      enrolToken = token;
    });
    requester = await signUpSubscriber(kabari.url, { displayName: 'Rina Wijaya' });
  });

  test.afterAll(async () => {
    await kabari?.stop();
  });

  test('a recipient reports, the operator suspends, the live share ends within 5 s', async ({ browser }) => {
    test.setTimeout(240_000);
    const baseURL = kabari.url;
    const link = await linkWithVoiceNote(baseURL, requester, { title: 'Mum', seconds: 4, text: 'Where are you?' });

    // The requester watches the request on the dashboard's map.
    const requesterContext = await browser.newContext({ baseURL });
    await signInAsSubscriber(requesterContext, baseURL, requester);
    const requesterPage = await requesterContext.newPage();
    await requesterPage.goto('/dashboard/');
    const row = requesterPage.getByTestId('request-row').filter({ hasText: 'Mum' });
    await expect(row).toContainText('Pending');

    // The recipient reports abuse on the consent page, then shares, live.
    const recipientContext = await browser.newContext({
      baseURL,
      geolocation: RECIPIENT_POSITION,
      permissions: ['geolocation'],
      viewport: { width: 390, height: 844 },
    });
    const recipient = await recipientContext.newPage();
    await recipient.goto(`/enter-link?token=${link.token}`);
    await expect(recipient.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
    await recipient.getByRole('button', { name: 'Report abuse' }).click();
    await recipient.getByLabel('Reason').selectOption('harassment');
    await recipient.getByLabel('Details (optional)').fill('Keeps asking where I am at night.');
    await recipient.getByRole('button', { name: 'Send report' }).click();
    await expect(recipient.getByText("Thank you. Your report was sent to Kabari's team.")).toBeVisible();
    await recipient.getByRole('button', { name: 'Share my location' }).click();
    await expect(recipient).toHaveURL(/\/share\?token=/);
    await recipient.getByRole('button', { name: '15 minutes' }).click();
    await expect(recipient.getByText(/^Live sharing is on until \d\d:\d\d\.$/)).toBeVisible();
    await row.getByRole('button', { name: 'Show on map' }).click();
    const map = requesterPage.getByTestId('live-map');
    await expect(map.getByTestId('live-badge')).toBeVisible();

    // The operator enrols with the printed link, then signs in with a current code.
    const operatorContext = await browser.newContext({ baseURL });
    const operator = await operatorContext.newPage();
    let secret = '';
    await test.step('enrolment', async () => {
      await operator.goto(`/operator/enrol#token=${enrolToken}`);
      await expect(operator.getByRole('img', { name: /QR code/ })).toBeVisible();
      // The token leaves the address bar once read.
      expect(new URL(operator.url()).hash).toBe('');
      secret = (await operator.locator('.console-secret').textContent()) ?? '';
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      expect(await axeViolations(operator), 'the enrolment page').toEqual([]);
      await operator.getByLabel('Password', { exact: true }).fill(OPERATOR_PASSWORD);
      await operator.getByLabel('Password again').fill(OPERATOR_PASSWORD);
      // The previous step's code: the sign-in below uses the current one, and a code is good for one use.
      await operator.getByLabel('Code from the app').fill(totpCode(secret, 1));
      const finish = operator.waitForRequest((request) => request.url().endsWith('/api/v1/operator/enrolment/finish'));
      await operator.getByRole('button', { name: 'Finish setting up' }).click();
      expectEncrypted((await finish).postDataJSON());
      await expect(operator.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
      expect(await axeViolations(operator), 'the recovery codes').toEqual([]);
      await operator.getByRole('button', { name: 'I have kept them: go to the console' }).click();
      await expect(operator.getByRole('heading', { level: 1, name: 'Abuse reports' })).toBeVisible();
      await operator.getByRole('button', { name: 'Sign out' }).click();
      await expect(operator.getByRole('heading', { level: 1, name: 'Operator sign-in' })).toBeVisible();
    });

    await test.step('sign-in with the password and a TOTP code', async () => {
      await operator.getByLabel('Email address').fill(OPERATOR_EMAIL);
      await operator.getByLabel('Password').fill(OPERATOR_PASSWORD);
      await operator.getByLabel('Authenticator code or recovery code').fill(totpCode(secret));
      const signIn = operator.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/api/v1/operator/session'),
      );
      await operator.getByRole('button', { name: 'Sign in' }).click();
      expectEncrypted((await signIn).postDataJSON());
      await expect(operator.getByRole('heading', { level: 1, name: 'Abuse reports' })).toBeVisible();
      const cookie = (await operatorContext.cookies()).find((candidate) => candidate.name === 'kabari_operator');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/operator' });
    });

    await test.step('the report, and the suspension', async () => {
      await operator
        .getByRole('link', { name: /Open report from/ })
        .first()
        .click();
      await expect(operator.getByText('Keeps asking where I am at night.')).toBeVisible();
      await expect(operator.getByText('Where are you?')).toBeVisible();
      await expect(operator.getByLabel('Voice note the recipient heard')).toHaveAttribute('src', /\/voice-note$/);
      await operator.getByRole('button', { name: 'Suspend the requester' }).click();
      const dialog = operator.getByRole('dialog', { name: 'Suspend the requester?' });
      await dialog.getByLabel('Note').fill('Harassing a stranger at night');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(operator.getByText(/^Suspended since/)).toBeVisible();
    });
    const suspendedAt = Date.now();

    await test.step("within 5 seconds the live share has ended on the requester's map and on the recipient's open page", async () => {
      await expect(map.getByTestId('live-badge')).toBeHidden({ timeout: 5_000 });
      expect(Date.now() - suspendedAt).toBeLessThan(5_000);
      // The recipient's open page hears it too, and stops sending.
      await expect(
        recipient.getByRole('heading', { name: 'This request has ended. Nothing more is shared through this link.' }),
      ).toBeVisible({ timeout: Math.max(1, 5_000 - (Date.now() - suspendedAt)) });
      await expect(recipient.getByRole('button', { name: '15 minutes' })).toHaveCount(0);
    });

    await test.step('the requester can neither sign in nor send', async () => {
      const sent = await fetch(new URL('/api/v1/links', baseURL), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: requester.token },
        body: JSON.stringify({ title: 'Again', locale: 'en' }),
      });
      expect(sent.status).toBeGreaterThanOrEqual(400);
      const fresh = await requesterContext.browser()!.newContext({ baseURL });
      const page = await fresh.newPage();
      await page.goto('/');
      const dialog = await openLoginFromHeader(page);
      await dialog.getByLabel('Email').fill(requester.email);
      await dialog.getByLabel('Password', { exact: true }).fill(requester.password);
      await dialog.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByText(/suspended/i).first()).toBeVisible();
      await expect(page).not.toHaveURL(/\/dashboard/);
      await fresh.close();
    });

    await test.step('the console passes axe at 360 px and desktop, in both languages', async () => {
      const reportPath = new URL(operator.url()).pathname;
      await axeEverywhere(operator, '/operator', { en: /^Abuse reports$/, id: /^Laporan penyalahgunaan$/ });
      await axeEverywhere(operator, reportPath, { en: /^Report of /, id: /^Laporan tanggal / });
      await axeEverywhere(operator, '/operator/refunds', { en: /^Refunds owed$/, id: /^Pengembalian dana$/ });
      await axeEverywhere(operator, '/operator/contact-messages', { en: /^Contact messages$/, id: /^Pesan kontak$/ });
      await axeEverywhere(operator, '/operator/failed-messages', {
        en: /^Messages that failed for good$/,
        id: /^Pesan yang gagal terkirim$/,
      });
      await axeEverywhere(operator, '/operator/sms-spend', { en: /^SMS spend today$/, id: /^Biaya SMS hari ini$/ });
      await axeEverywhere(operator, '/operator/audit-log', { en: /^Audit log$/, id: /^Log audit$/ });
    });

    for (const context of [requesterContext, recipientContext, operatorContext] as BrowserContext[])
      await context.close();
  });
});
