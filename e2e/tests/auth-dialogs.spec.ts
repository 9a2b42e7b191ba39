import type { Page, Request } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import {
  answer,
  dialogOpened,
  envelope,
  headerLogIn,
  openLoginFromHeader,
  recordToasts,
  signInAsSubscriber,
  startPublicPageApp,
  toasts,
} from '../support/app-helpers';
import { startKabari } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';
import { encryptPassword, signUpSubscriber } from '../support/subscriber';

// Real subscribers and the real server throughout: the reset code is read from the local outbox (/dev/outbox,
// which the production server started by `npm start` serves to this machine while no SMTP/Twilio is configured).
// Only the SendCodeFailed answer is played back.

/**
 * The newest reset code emailed to this address, from the local outbox: found by its subject, since the address
 * also has the sign-up's receipt. Until it comes, the poll shows the subjects that are there.
 */
async function resetCodeFor(baseURL: string, email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const messages = await outboxMessages(baseURL, email);
      const reset = messages.find((message) => message.subject === 'Your Kabari password reset code');
      code = reset?.bodyText.match(/\b(\d{6})\b/)?.[1];
      return code ?? `no code yet; subjects: ${messages.map((message) => message.subject).join(' | ')}`;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

async function openLogin(page: Page, path = '/', name = 'Log in') {
  await page.goto(path);
  return openLoginFromHeader(page, name);
}

// Tests that begin alike go on as steps of one test: a browser that starts the app costs about 1.7 CPU-seconds, and
// each step leaves the dialog as the next one expects it.
test.describe('the login dialog', () => {
  test('checks its fields, refuses a wrong login, shows the password, and starts over when closed', async ({
    page,
  }) => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/auth/login')) calls += 1;
    });
    const dialog = await openLogin(page);
    const email = dialog.getByLabel('Email');
    const password = dialog.getByLabel('Password', { exact: true });

    await test.step('says what is missing or malformed, and submits nothing then', async () => {
      await dialog.getByRole('button', { name: 'Log in' }).click();
      await expect(dialog.getByText('Please enter your email address')).toBeVisible();
      await expect(dialog.getByText('Please input a your password')).toBeVisible();
      await email.fill('ana@example');
      await password.fill('secret1');
      await expect(dialog.getByText('Enter valid email address')).toBeVisible();
      expect(await axeViolations(page), 'the login dialog with its errors').toEqual([]);
      await dialog.getByRole('button', { name: 'Log in' }).click();
      await email.fill('ana@example.com');
      await expect(dialog.getByText('Enter valid email address')).toBeHidden();
      expect(calls).toBe(0);
    });

    await test.step('a refused login keeps the dialog open, with the reason; the password travels encrypted', async () => {
      await email.fill('  nobody@example.com ');
      await password.fill('not-the-password');
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/login')),
        dialog.getByRole('button', { name: 'Log in' }).click(),
      ]);
      const body = request.postDataJSON() as { email: string; password: string };
      expect(body.email).toBe('nobody@example.com');
      expect(body.password).not.toContain('not-the-password');
      expect(Buffer.from(body.password, 'base64')).toHaveLength(256);
      expect(request.headers()['application-id']).toBe('kabari-web');
      await expect(toasts(page).filter({ hasText: 'Incorrect email or password.' })).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(email).toHaveValue('nobody@example.com');
    });

    await test.step('shows and hides the password', async () => {
      await password.fill('secret1');
      await expect(password).toHaveAttribute('type', 'password');
      await dialog.getByRole('button', { name: 'Show' }).click();
      await expect(password).toHaveAttribute('type', 'text');
    });

    await test.step('Escape does not close it; the close button does, and clears both fields', async () => {
      await email.fill('ana@example.com');
      await password.fill('secret1');
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await headerLogIn(page).click();
      await expect(email).toHaveValue('');
      await expect(password).toHaveValue('');
    });
  });

  test('in Indonesian: a refused login gives the server’s reason; a right one signs in (HttpOnly cookie, user saved, dashboard)', async ({
    page,
    context,
    baseURL,
  }) => {
    // A real subscriber, signed up through the API with the sandbox card.
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Ana' });
    const shownToasts = await recordToasts(page);
    const dialog = await openLogin(page, '/id/', 'Masuk');
    const password = dialog.getByLabel('Kata sandi', { exact: true });

    await test.step('a refused login', async () => {
      await dialog.getByLabel('Email').fill('tidak-ada@example.com');
      await password.fill('bukan-kata-sandinya');
      // Answered by the login route itself (400), not refused as a post from another site (403): Kabari's own
      // pages post as before (the cross-site tests in session-cookie.spec.ts).
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/login')),
        dialog.getByRole('button', { name: 'Masuk' }).click(),
      ]);
      expect(answer.status()).toBe(400);
      await expect(toasts(page).filter({ hasText: 'Email atau kata sandi salah.' })).toBeVisible();
      expect(await shownToasts()).toEqual(['Email atau kata sandi salah.']);
      await expect(dialog).toBeVisible();
    });

    await test.step('signs in', async () => {
      await dialog.getByLabel('Email').fill(subscriber.email);
      await password.fill(subscriber.password);
      await password.press('Enter');
      await expect(page).toHaveURL(/\/id\/dashboard\/$/);
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('dashboard-user')).toContainText('Ana');
      const token = (await context.cookies()).find((cookie) => cookie.name === 'token');
      expect(token).toEqual(expect.objectContaining({ path: '/', httpOnly: true, sameSite: 'Lax' }));
      expect(token?.value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('kabari-user') ?? '{}'));
      expect(stored.state.user.userCacheInfo.email).toBe(subscriber.email);
      await expect(page.locator('header').getByRole('button', { name: 'Masuk' })).toHaveCount(0);
    });
  });
});

test.describe('the reset-password dialog', () => {
  async function openReset(page: Page) {
    const login = await openLogin(page);
    await login.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(login).toBeHidden();
    // Shown whole before the test's first press (see dialogOpened).
    const dialog = await dialogOpened(page.getByRole('dialog', { name: 'Reset your password' }));
    await expect(dialog.getByLabel('Email')).toBeFocused();
    return dialog;
  }

  test('asks for the email, then the code; starts over when closed; a real reset signs in with the new password', async ({
    page,
    baseURL,
  }) => {
    // Four tests' worth of steps, and a wait for the emailed code: twice the usual limit.
    test.setTimeout(120_000);
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Ana' });
    const dialog = await openReset(page);

    await test.step('step one asks only for the email; a sent code adds the new password and the code', async () => {
      await expect(dialog.getByRole('textbox')).toHaveCount(1);
      await dialog.getByRole('button', { name: 'Reset' }).click();
      await expect(dialog.getByText('Please enter your email address')).toBeVisible();
      // The real server answers success for any email, so it cannot be used to find accounts.
      await dialog.getByLabel('Email').fill('nobody@example.com');
      await dialog.getByRole('button', { name: 'Reset' }).click();
      await expect(toasts(page).filter({ hasText: 'a verification code is on its way' })).toBeVisible();
      await expect(dialog.getByLabel('New password')).toBeVisible();
      await expect(dialog.getByLabel('Verification code')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeVisible();

      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(toasts(page).filter({ hasText: 'Please enter the verification code' })).toBeVisible();
      await expect(dialog.getByText('Please input a your new password')).toBeVisible();
      await expect(dialog.getByText('Please input a your verification code')).toBeVisible();
      expect(await axeViolations(page), 'the reset dialog, step two, with its errors').toEqual([]);

      await dialog.getByLabel('New password').fill('new-secret');
      await dialog.getByLabel('Verification code').fill('123456');
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(
        toasts(page).filter({ hasText: 'The verification code is incorrect or has expired.' }),
      ).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeVisible();
    });

    /** Opened again from the header's login dialog: back at step one, empty. */
    const reopenedAtStepOne = async () => {
      const login = await openLoginFromHeader(page);
      await login.getByRole('button', { name: 'Forgot your password?' }).click();
      // Shown whole before anything is pressed: a press while it still opens can miss (see dialogOpened).
      await dialogOpened(dialog);
      await expect(dialog.getByLabel('Email')).toHaveValue('');
      await expect(dialog.getByLabel('New password')).toHaveCount(0);
      await expect(dialog.getByLabel('Verification code')).toHaveCount(0);
      await expect(dialog.getByRole('button', { name: 'Reset' })).toBeVisible();
      return login;
    };

    await test.step('the close button starts it over: step one, empty fields', async () => {
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await reopenedAtStepOne();
    });

    await test.step('an invalid email is named inline and sends no code', async () => {
      let calls = 0;
      const count = (request: Request) => {
        if (request.url().endsWith('/api/v1/auth/sendCode')) calls += 1;
      };
      page.on('request', count);
      await dialog.getByLabel('Email').fill('ana@example');
      await dialog.getByRole('button', { name: 'Reset' }).click();
      await expect(dialog.getByText('Enter valid email address')).toBeVisible();
      await expect(dialog.getByLabel('New password')).toHaveCount(0);
      expect(calls).toBe(0);
      page.off('request', count);
    });

    await test.step('a real reset: the emailed code sets the new password, which signs in; the old session ends', async () => {
      // The first step's toast says the same: it is gone before this one is looked for.
      await expect(toasts(page)).toHaveCount(0);
      await dialog.getByLabel('Email').fill(subscriber.email);
      await dialog.getByRole('button', { name: 'Reset' }).click();
      await expect(toasts(page).filter({ hasText: 'a verification code is on its way' })).toBeVisible();
      const code = await resetCodeFor(baseURL!, subscriber.email);

      const newPassword = `new-${subscriber.password}`;
      await dialog.getByLabel('New password').fill(newPassword);
      await dialog.getByLabel('Verification code').fill(code);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Confirm' }).click();
      await expect(toasts(page).filter({ hasText: 'Your password has been reset.' })).toBeVisible();
      await expect(dialog).toBeHidden();

      // A reset done starts it over too.
      const login = await reopenedAtStepOne();
      await dialog.getByRole('button', { name: 'Close' }).click();

      // The session from before the reset is revoked.
      const before = await fetch(`${baseURL}/api/v1/personnal/subscribe/info`, {
        headers: { authorization: subscriber.token, accept: 'application/json' },
      });
      expect(before.status).toBe(401);

      // The new password signs in.
      await openLoginFromHeader(page);
      await login.getByLabel('Email').fill(subscriber.email);
      await login.getByLabel('Password', { exact: true }).fill(newPassword);
      await login.getByRole('button', { name: 'Log in' }).click();
      await expect(page).toHaveURL(/\/dashboard\/$/);
      await expect(page.getByTestId('dashboard-user')).toContainText('Ana');
    });
  });

  test('says SendCodeFailed with the reason when the code cannot be sent', async ({ page }) => {
    await answer(page, '**/api/v1/auth/sendCode', () =>
      envelope(429, null, 'Too many codes requested for this email. Please try again in 59 minutes.'),
    );
    const dialog = await openReset(page);
    await dialog.getByLabel('Email').fill('ana@example.com');
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await expect(
      toasts(page).filter({ hasText: 'The verification code could not be sent. Too many codes requested' }),
    ).toBeVisible();
    await expect(dialog.getByLabel('New password')).toHaveCount(0);
  });
});

test.describe('login throttling', () => {
  // Its own Kabari: the failures it needs would count against the shared server's limits for other tests.
  test('failed logins from this address make it wait longer each time: the dialog says so (429)', async ({ page }) => {
    const kabari = await startKabari();
    try {
      const email = 'throttled@example.com';
      const keyResponse = await fetch(`${kabari.url}/api/v1/auth/publicKey`);
      const { publicKey } = ((await keyResponse.json()) as { data: { publicKey: string } }).data;
      const fail = () =>
        fetch(`${kabari.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: encryptPassword(publicKey, 'wrong-password') }),
        });
      // The dialog is open and filled first, so that the click below follows the last refusal at once.
      const dialog = await openLogin(page, `${kabari.url}/`);
      await dialog.getByLabel('Email').fill(email);
      await dialog.getByLabel('Password', { exact: true }).fill('wrong-again');
      // Five failures are free; each further one doubles the wait (1 s, 2 s, 4 s…). Fail through the API, each
      // time the server allows it again, until the wait outlasts the click that follows.
      let wait = 0;
      while (wait < 4) {
        const response = await fail();
        if (response.status === 429) {
          wait = Number(response.headers.get('retry-after'));
          const allowedAt = Date.now() + wait * 1000;
          if (wait < 4) await expect.poll(() => Date.now() >= allowedAt, { timeout: 20_000 }).toBe(true);
        } else {
          expect(response.status).toBe(400);
        }
      }
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/v1/auth/login')),
        dialog.getByRole('button', { name: 'Log in' }).click(),
      ]);
      expect(response.status()).toBe(429);
      await expect(
        toasts(page).filter({ hasText: /Too many failed login attempts for this account\. Please try again in / }),
      ).toBeVisible();
      await expect(dialog).toBeVisible();
    } finally {
      await kabari.stop();
    }
  });
});

test.describe('at phone width (360 px)', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  /** Nothing sticks out sideways: the page never scrolls horizontally. */
  async function expectNoSidewaysScroll(page: Page, where: string) {
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      header: Math.ceil(document.querySelector('header')!.getBoundingClientRect().right),
    }));
    expect(widths.scroll, where).toBeLessThanOrEqual(widths.inner);
    expect(widths.header, where).toBeLessThanOrEqual(widths.inner);
  }

  for (const { prefix, logIn, forgot, reset } of [
    { prefix: '', logIn: 'Log in', forgot: 'Forgot your password?', reset: 'Reset your password' },
    { prefix: '/id', logIn: 'Masuk', forgot: 'Lupa kata sandi?', reset: 'Atur ulang kata sandi' },
  ]) {
    test(`header, home page and both dialogs fit (${prefix || '/en'})`, async ({ page }) => {
      const login = await openLogin(page, `${prefix}/`, logIn);
      await expectNoSidewaysScroll(page, 'login dialog');
      expect(await axeViolations(page), 'login dialog').toEqual([]);
      const box = await login.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      await login.getByRole('button', { name: forgot }).click();
      const resetDialog = page.getByRole('dialog', { name: reset });
      await expect(resetDialog).toBeVisible();
      await expectNoSidewaysScroll(page, 'reset dialog');
      expect(await axeViolations(page), 'reset dialog').toEqual([]);
      const resetBox = await resetDialog.boundingBox();
      expect(resetBox!.x + resetBox!.width).toBeLessThanOrEqual(360);

      // A visitor's header stays one line: Log in sits level with the brand, as the plain page's link and as the
      // app's button alike.
      await page.goto(`${prefix}/`);
      for (const state of ['before the app', 'with the app']) {
        if (state === 'with the app') await startPublicPageApp(page, logIn);
        await expect(headerLogIn(page, logIn)).toBeVisible();
        await expectNoSidewaysScroll(page, `home page ${state}`);
        const brand = await page.locator('.site-header__brand').boundingBox();
        const button = await headerLogIn(page, logIn).boundingBox();
        expect(Math.abs(brand!.y + brand!.height / 2 - (button!.y + button!.height / 2)), state).toBeLessThan(8);
      }
    });
  }

  test('a signed-in header fits too, in both languages', async ({ page, context, baseURL }) => {
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Ana' });
    await signInAsSubscriber(context, baseURL!, subscriber);
    for (const [path, name] of [
      ['/dashboard', 'My subscription'],
      ['/id/dashboard', 'Langganan Saya'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('header').getByRole('link', { name })).toBeVisible();
      const widths = await page.evaluate(() => ({
        header: document.querySelector('header')!.scrollWidth,
        inner: window.innerWidth,
      }));
      expect(widths.header, path).toBeLessThanOrEqual(widths.inner);
    }
  });
});
