import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { dialogOpened, signInAsSubscriber, startPublicPageApp } from '../support/app-helpers';
import { devToolUrl, startKabari, type KabariServer } from '../support/kabari-server';
import { signUpSubscriber } from '../support/subscriber';

// Sign-up and billing in the browser, against the real server and its sandbox processor. Set-up that other specs
// already prove (a signed-up subscriber) goes through the API (e2e/support/subscriber.ts).

let counter = 0;
const newEmail = () => `e2e-billing-${Date.now()}-${(counter += 1)}@example.com`;

/** The visitor's path into the sign-up: the home search, its searching modal, then Continue. */
async function openSignUpFromSearch(page: Page): Promise<Locator> {
  await page.goto('/');
  // The app starts on the visitor's first use; started first here, so the steps below are the app's.
  await startPublicPageApp(page);
  await page.getByLabel('Country code').selectOption('ID');
  await page.getByLabel('Mobile number').fill('812 3456 7890');
  await page.getByRole('button', { name: 'Find' }).click();
  const facts = await dialogOpened(page.getByRole('dialog', { name: 'About this number' }));
  await facts.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create your account' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email')).toBeFocused();
  return dialog;
}

async function createAccount(dialog: Locator, email: string) {
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Your name').fill('Rina');
  await dialog.getByRole('checkbox', { name: /18 or older/ }).check();
  await dialog.getByRole('checkbox', { name: /Terms of Use/ }).check();
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByText('Step 2 of 2: payment')).toBeVisible();
}

async function fillSandboxCard(dialog: Locator, cardNumber: string) {
  await expect(dialog.getByRole('heading', { name: /Sandbox card form/ })).toBeVisible();
  await dialog.getByLabel('First name on card').fill('Rina');
  await dialog.getByLabel('Last name on card').fill('Putri');
  await dialog.getByLabel('Card number').fill(cardNumber);
  await dialog.getByLabel('Expiry (MM/YY)').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
  await dialog.getByLabel('CVV').fill('123');
  await dialog.getByRole('checkbox', { name: /subscription terms/ }).check();
}

async function payWithSandboxCard(page: Page, dialog: Locator, cardNumber: string) {
  await fillSandboxCard(dialog, cardNumber);
  const polled = page.waitForRequest((request) => request.url().includes('/api/v1/personnal/registerQuery/'));
  await dialog.getByRole('button', { name: /^Pay / }).click();
  await polled;
}

test.describe('accounts, subscriptions and payments', () => {
  test('a visitor searches, creates an account, pays with the sandbox card and lands signed in on the dashboard', async ({
    page,
    context,
    baseURL,
  }) => {
    const dialog = await openSignUpFromSearch(page);
    await expect(dialog.getByText(/You searched for \+6281234567890/)).toBeVisible();
    await createAccount(dialog, newEmail());
    const summary = dialog.getByRole('region', { name: 'What you pay' });
    await expect(summary.getByText(/^Today you pay .+ for your first day\.$/)).toBeVisible();
    await expect(summary.getByText(/is charged every \d+ days until you cancel/)).toBeVisible();
    await expect(summary.getByText(/You can cancel at any time/)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: /Sandbox card form/ })).toBeVisible();
    expect(await axeViolations(page), 'the payment step').toEqual([]);
    await payWithSandboxCard(page, dialog, '4242 4242 4242 4242');

    // The register result screen polled, signed the new user in and opened the welcome dialog.
    await expect(page).toHaveURL(/\/dashboard\/modules\/SuccessModal$/);
    const welcome = page.getByRole('dialog', { name: 'Welcome to Kabari' });
    await expect(welcome.getByText('Welcome, Rina! Your subscription is active.')).toBeVisible();
    // No password was chosen: the welcome offers to set one by the emailed code.
    await expect(welcome.getByRole('button', { name: 'Set my password' })).toBeVisible();
    const cookies = await context.cookies(baseURL);
    expect(cookies.find((cookie) => cookie.name === 'token')?.value).toBeTruthy();
    await welcome.getByRole('button', { name: 'Go to my dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard\/$/);
    // The number searched before the account is the one the dashboard offers to ask.
    const search = page.getByRole('region', { name: 'New search' });
    await expect(search.getByText(/^You searched for \+62 812 3456 7890 before creating your account\./)).toBeVisible();
    await expect(search.getByLabel('Mobile number')).toHaveValue('0812-3456-7890');
    await expect(search.getByLabel('Country code')).toHaveValue('ID');
  });

  test('a payment whose answer was lost, paid again, is one sign-up and one charge', async ({ page }) => {
    const dialog = await openSignUpFromSearch(page);
    await createAccount(dialog, newEmail());
    // The first answer is lost on its way back: the server took the payment, the page hears nothing.
    const attemptIds: string[] = [];
    await page.route('**/api/v1/auth/registerAndSign/v5pay', async (route) => {
      attemptIds.push((route.request().postDataJSON() as { attemptId: string }).attemptId);
      if (attemptIds.length > 1) return route.continue();
      expect((await route.fetch()).status()).toBe(200);
      await route.abort('connectionreset');
    });
    await fillSandboxCard(dialog, '4242 4242 4242 4242');
    await dialog.getByRole('button', { name: /^Pay / }).click();
    await expect(dialog.getByRole('alert')).toBeVisible();

    // Pay again: the same try, answered with the sign-up the first one made.
    await payWithSandboxCard(page, dialog, '4242 4242 4242 4242');
    await expect(page).toHaveURL(/\/dashboard\/modules\/SuccessModal$/);
    expect(attemptIds).toHaveLength(2);
    expect(attemptIds[1]).toBe(attemptIds[0]);
    const payments = await (await page.request.get('/api/v1/personnal/payments')).json();
    expect(payments.data.items).toHaveLength(1);
  });

  test('a declined card: the result screen says so, with the decline message', async ({ page }) => {
    const dialog = await openSignUpFromSearch(page);
    await createAccount(dialog, newEmail());
    await payWithSandboxCard(page, dialog, '4000 0000 0000 0002');
    await expect(page).toHaveURL(/\/register\?id=/);
    const status = page.getByRole('status').filter({ hasText: 'The payment did not go through' });
    await expect(status).toBeVisible();
    await expect(status.getByText(/^Reason: .*declined/i)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Try again with another card' })).toBeVisible();
  });

  test('cancelling keeps access until the valid-until date, which the confirmation names', async ({
    page,
    context,
    baseURL,
  }) => {
    const subscriber = await signUpSubscriber(baseURL!);
    await signInAsSubscriber(context, baseURL!, subscriber);
    await page.goto('/dashboard/modules/MySubscription');
    const mine = await dialogOpened(page.getByRole('dialog', { name: 'My subscription' }));
    await expect(mine.getByTestId('subscription-status')).toHaveText('Trial (first day)');
    const validUntil = (await mine.getByTestId('subscription-valid-until').textContent())!;
    expect(validUntil).toMatch(/\d{4}/);
    await expect(mine.getByRole('row', { name: /First day/ })).toContainText('•••• 4242');
    await mine.getByRole('button', { name: 'Cancel subscription' }).click();

    await expect(page).toHaveURL(/\/dashboard\/modules\/cancleMySubscriptionModal$/);
    const confirm = await dialogOpened(page.getByRole('dialog', { name: 'Cancel your subscription?' }));
    await expect(confirm.getByText(`You keep access until ${validUntil}`, { exact: false })).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect(confirm.getByTestId('cancelled-until')).toHaveText(
      `Your subscription is cancelled. You have access until ${validUntil}.`,
    );
    await confirm.getByRole('button', { name: 'Back to My subscription' }).click();
    await expect(mine.getByTestId('subscription-status')).toHaveText('Cancelled');
  });
});

test.describe('an expired subscription', () => {
  // Expiring a subscription now takes /dev/subscriptions/expire, served only when asked for: a Kabari of its own.
  let kabari: KabariServer;
  test.beforeAll(async () => {
    // Starting a server has been seen to take 55 s on a busy 2-core machine.
    test.setTimeout(120_000);
    kabari = await startKabari({ DEV_BILLING_TOOLS: 'true' });
  });
  test.afterAll(async () => {
    await kabari?.stop();
  });

  test('protected navigation lands on the expired state, which offers renewal', async ({ page, context }) => {
    const subscriber = await signUpSubscriber(kabari.url, { locale: 'id' });
    const expired = await fetch(devToolUrl(kabari.url, '/dev/subscriptions/expire'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: subscriber.email }),
    });
    expect(expired.status).toBe(200);
    await signInAsSubscriber(context, kabari.url, subscriber);
    // On the English pages too, paying again is at the subscription's own price in rupiah (what the server's
    // renewal terms say), not in the English pages' dollars.
    const terms = (await (
      await fetch(`${kabari.url}/api/v1/personnal/subscribe/renewal-terms`, {
        headers: { authorization: subscriber.token },
      })
    ).json()) as { data: { amount: number; currencyCode: string; period: number } };
    expect(terms.data.currencyCode).toBe('IDR');
    const rupiah = terms.data.amount.toLocaleString('en-US');
    await page.goto(`${kabari.url}/dashboard/`);
    const inEnglish = page.getByRole('dialog', { name: 'Your subscription has expired' });
    // Exact text (Playwright folds the formatter's no-break space into a plain one).
    await expect(
      inEnglish.getByText(`Today you pay IDR ${rupiah} for the next ${terms.data.period} days.`, { exact: true }),
    ).toBeVisible();
    await page.goto(`${kabari.url}/id/dashboard/`);
    await expect(page).toHaveURL(/\/id\/dashboard\/\?s=-1&at=10$/);
    const dialog = page.getByRole('dialog', { name: 'Langganan Anda sudah berakhir' });
    await expect(dialog.getByText(/Langganan Anda berakhir pada/)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Perpanjang langganan' })).toBeVisible();
    await expect(
      dialog.getByText(
        `Hari ini Anda membayar Rp ${terms.data.amount.toLocaleString('id-ID')} untuk ${terms.data.period} hari ke depan.`,
        { exact: true },
      ),
    ).toBeVisible();
    // A subscription in rupiah is offered QRIS first, then the e-wallets and banks; the card comes after them.
    await expect(dialog.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    await dialog.getByRole('radio', { name: 'Kartu' }).check();
    await expect(dialog.getByRole('heading', { name: /Formulir kartu sandbox/ })).toBeVisible();

    // Renewing with the sandbox card makes the subscription active again.
    await dialog.getByLabel('Nama depan di kartu').fill('Rina');
    await dialog.getByLabel('Nama belakang di kartu').fill('Putri');
    await dialog.getByLabel('Nomor kartu').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Masa berlaku (BB/TT)').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
    await dialog.getByLabel('CVV').fill('123');
    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar / }).click();
    await expect(dialog.getByText('Langganan Anda aktif kembali.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Tutup' }).last().click();
    await expect(page).toHaveURL(/\/id\/dashboard\/$/);
  });
});
