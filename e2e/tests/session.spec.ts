import { test, expect } from '../support/fixtures';
import type { BrowserContext } from '@playwright/test';
import {
  answer,
  dialogOpened,
  envelope,
  openLoginFromHeader,
  recordToasts,
  signInAsSubscriber,
  subscriptionInfoUrl,
  toasts,
} from '../support/app-helpers';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';

// One real subscriber for the file: the dashboard's own calls need a session the server knows; the answers
// under test are played back per test.
let subscriber: Subscriber | undefined;
async function signIn(context: BrowserContext, baseURL: string): Promise<void> {
  subscriber ??= await signUpSubscriber(baseURL, { displayName: 'Ana' });
  await signInAsSubscriber(context, baseURL, subscriber);
}

test.describe('the session and the API client', () => {
  test('a session ended elsewhere: the 401 clears the server’s cookie and the user, home in the same language, a toast', async ({
    page,
    context,
    baseURL,
  }) => {
    // Its own subscriber: the session is really ended, on the server, from another device.
    const ended = await signUpSubscriber(baseURL!, { displayName: 'Ani' });
    await signInAsSubscriber(context, baseURL!, ended);
    const logout = await fetch(`${baseURL}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { authorization: ended.token },
    });
    expect(logout.status).toBe(200);
    await page.goto('/id/dashboard');
    await expect(page).toHaveURL(/\/id\/$/);
    await expect(toasts(page).filter({ hasText: 'Sesi login Anda sudah berakhir. Silakan masuk lagi.' })).toBeVisible();
    expect((await context.cookies()).find((cookie) => cookie.name === 'token')).toBeUndefined();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('kabari-user') ?? '{}'));
    expect(stored.state.user).toBeNull();
    await expect(page.locator('header').getByRole('button', { name: 'Masuk' })).toBeVisible();
  });

  test("the subscription's 403 goes to the expired state; any other 403 is only said", async ({
    page,
    context,
    baseURL,
  }) => {
    await signIn(context, baseURL!);
    const refusal = { refusal: 'subscription-needed' };
    const subscription = await answer(page, subscriptionInfoUrl, () => envelope(403, refusal, 'Forbidden'));
    await page.goto('/dashboard/modules/MySubscription');
    await expect(page).toHaveURL(/\/dashboard\/\?s=-1&at=10$/);
    await expect(page.getByTestId('dashboard-user')).toBeVisible();

    await page.unroute(subscriptionInfoUrl);
    expect(subscription.calls()).toBeGreaterThan(0);
    await answer(page, subscriptionInfoUrl, () => envelope(403, null, 'This account is suspended.'));
    await page.goto('/dashboard/modules/MySubscription');
    await expect(toasts(page).filter({ hasText: 'This account is suspended.' })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/modules\/MySubscription$/);
  });

  test('an expired subscription (expiredStatus 1) goes to the expired state once, and stays there', async ({
    page,
    context,
    baseURL,
  }) => {
    await signIn(context, baseURL!);
    const info = await answer(page, subscriptionInfoUrl, () => envelope(200, { expiredStatus: 1 }));
    await page.goto('/id/dashboard');
    await expect(page).toHaveURL(/\/id\/dashboard\/\?s=-1&at=10$/);
    // The redirect is a protected navigation too: asked again, already there, no further move.
    await expect.poll(() => info.calls()).toBe(2);
    await expect(page).toHaveURL(/\/id\/dashboard\/\?s=-1&at=10$/);
  });

  test('the subscription info is asked on every protected navigation', async ({ page, context, baseURL }) => {
    await signIn(context, baseURL!);
    const shownToasts = await recordToasts(page);
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/personnal/subscribe/info')) answers.push(response.status());
    });
    await page.goto('/dashboard');
    await expect.poll(() => answers).toEqual([200]);
    await page.evaluate(() => {
      window.history.pushState(null, '', '/dashboard/modules/SuccessModal');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => answers).toEqual([200, 200]);
    await page.waitForLoadState('networkidle');
    expect(await shownToasts()).toEqual([]);
    // The router followed the move (the address alone is what the test pushed).
    await expect(page.getByRole('dialog', { name: 'Welcome to Kabari' })).toBeVisible();
  });

  test('a read is retried once after a passing failure; a write never is', async ({ page, context, baseURL }) => {
    await signIn(context, baseURL!);
    const shownToasts = await recordToasts(page);
    const info = await answer(page, subscriptionInfoUrl, (call) =>
      call === 1 ? envelope(503, null, 'Busy') : envelope(200, { expiredStatus: 0 }),
    );
    await page.goto('/dashboard');
    await expect.poll(() => info.calls()).toBe(2);
    await page.waitForLoadState('networkidle');
    expect(await shownToasts()).toEqual([]);

    await context.clearCookies();
    const login = await answer(page, '**/api/v1/auth/login', () => envelope(503, null, 'Internal Server Error'));
    await page.goto('/');
    const dialog = await openLoginFromHeader(page);
    await dialog.getByLabel('Email').fill('ana@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('secret1');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(toasts(page).filter({ hasText: 'Internal Server Error' })).toBeVisible();
    expect(login.calls()).toBe(1);
    await expect(dialog).toBeVisible();
  });

  test('no answer at all says so, in the language of the page', async ({ page, context, baseURL }) => {
    await signIn(context, baseURL!);
    await page.route(subscriptionInfoUrl, (route) => route.abort('connectionrefused'));
    await page.goto('/id/dashboard');
    await expect(toasts(page).filter({ hasText: 'Kabari tidak dapat dihubungi.' })).toBeVisible();
  });

  test('a call with its own message gets no second toast', async ({ page }) => {
    await page.route('**/api/v1/auth/sendCode', (route) => route.abort('connectionrefused'));
    await page.goto('/id/');
    const login = await openLoginFromHeader(page, 'Masuk');
    await login.getByRole('button', { name: 'Lupa kata sandi?' }).click();
    const reset = await dialogOpened(page.getByRole('dialog', { name: 'Atur ulang kata sandi' }));
    await reset.getByLabel('Email').fill('ana@example.com');
    await reset.getByRole('button', { name: 'Atur ulang' }).click();
    // The dialog says SendCodeFailed itself; the API client adds nothing for a call that has its own message.
    await expect(toasts(page).filter({ hasText: 'Kode verifikasi tidak dapat dikirim.' })).toBeVisible();
    await expect(toasts(page)).toHaveCount(1);
  });
});
