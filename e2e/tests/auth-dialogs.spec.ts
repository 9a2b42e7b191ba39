import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { answer, envelope, toasts } from '../support/app-helpers';
import { signUpSubscriber } from '../support/subscriber';

// Sign-in uses a real subscriber; a successful reset is the server's answer played back by route interception
// (the code only reaches the outbox); every refusal below is the real server's.

async function openLogin(page: Page, path = '/', name = 'Log in') {
  await page.goto(path);
  await page.locator('header').getByRole('button', { name }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  // Opened: the cursor waits in the email field.
  await expect(dialog.getByRole('textbox').first()).toBeFocused();
  return dialog;
}

test.describe('the login dialog', () => {
  test('says what is missing or malformed, and submits nothing then', async ({ page }) => {
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/auth/login')) calls += 1;
    });
    const dialog = await openLogin(page);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await expect(dialog.getByText('Please enter your email address')).toBeVisible();
    await expect(dialog.getByText('Please input a your password')).toBeVisible();
    await dialog.getByLabel('Email').fill('ana@example');
    await dialog.getByLabel('Password', { exact: true }).fill('secret1');
    await expect(dialog.getByText('Enter valid email address')).toBeVisible();
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.getByLabel('Email').fill('ana@example.com');
    await expect(dialog.getByText('Enter valid email address')).toBeHidden();
    expect(calls).toBe(0);
  });

  test('a refused login keeps the dialog open, with the reason; the password travels encrypted', async ({ page }) => {
    const dialog = await openLogin(page);
    await dialog.getByLabel('Email').fill('  nobody@example.com ');
    await dialog.getByLabel('Password', { exact: true }).fill('not-the-password');
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
    await expect(dialog.getByLabel('Email')).toHaveValue('nobody@example.com');
  });

  test('signs in: token cookie and user saved, on to the dashboard, dialog closed', async ({
    page,
    context,
    baseURL,
  }) => {
    // A real subscriber, signed up through the API with the sandbox card.
    const subscriber = await signUpSubscriber(baseURL!, { displayName: 'Ana' });
    const dialog = await openLogin(page, '/id/', 'Masuk');
    await dialog.getByLabel('Email').fill(subscriber.email);
    await dialog.getByLabel('Kata sandi', { exact: true }).fill(subscriber.password);
    await dialog.getByLabel('Kata sandi', { exact: true }).press('Enter');
    await expect(page).toHaveURL(/\/id\/dashboard\/$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('dashboard-user')).toContainText('Ana');
    const token = (await context.cookies()).find((cookie) => cookie.name === 'token');
    expect(token).toEqual(expect.objectContaining({ path: '/' }));
    expect(token?.value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('kabari-user') ?? '{}'));
    expect(stored.state.user.userCacheInfo.email).toBe(subscriber.email);
    await expect(page.locator('header').getByRole('button', { name: 'Masuk' })).toHaveCount(0);
  });

  test('Escape does not close it; the close button does, and clears both fields', async ({ page }) => {
    const dialog = await openLogin(page);
    await dialog.getByLabel('Email').fill('ana@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('secret1');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    await expect(dialog.getByLabel('Email')).toHaveValue('');
    await expect(dialog.getByLabel('Password', { exact: true })).toHaveValue('');
  });

  test('shows and hides the password', async ({ page }) => {
    const dialog = await openLogin(page);
    const password = dialog.getByLabel('Password', { exact: true });
    await password.fill('secret1');
    await expect(password).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Show' }).click();
    await expect(password).toHaveAttribute('type', 'text');
  });
});

test.describe('the reset-password dialog', () => {
  async function openReset(page: Page) {
    const login = await openLogin(page);
    await login.getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(login).toBeHidden();
    const dialog = page.getByRole('dialog', { name: 'Reset your password' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Email')).toBeFocused();
    return dialog;
  }

  test('step one asks only for the email; a sent code adds the new password and the code', async ({ page }) => {
    const dialog = await openReset(page);
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

    await dialog.getByLabel('New password').fill('new-secret');
    await dialog.getByLabel('Verification code').fill('123456');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(toasts(page).filter({ hasText: 'The verification code is incorrect or has expired.' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeVisible();
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

  test('a reset toasts, clears, returns to step one and closes; Escape never closes it', async ({ page }) => {
    await answer(page, '**/api/v1/auth/sendCode', () => envelope(200, { success: true }));
    const reset = await answer(page, '**/api/v1/auth/resetPassword', () => envelope(200, { success: true }));
    const dialog = await openReset(page);
    await dialog.getByLabel('Email').fill('ana@example.com');
    await dialog.getByRole('button', { name: 'Reset' }).click();
    await dialog.getByLabel('New password').fill('new-secret');
    await dialog.getByLabel('Verification code').fill('123456');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(toasts(page).filter({ hasText: 'Your password has been reset.' })).toBeVisible();
    await expect(dialog).toBeHidden();
    expect(reset.calls()).toBe(1);

    await page.locator('header').getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('dialog', { name: 'Log in' }).getByRole('button', { name: 'Forgot your password?' }).click();
    await expect(dialog.getByLabel('Email')).toHaveValue('');
    await expect(dialog.getByLabel('New password')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Reset' })).toBeVisible();
  });
});
