import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { dialogOpened, signInAsSubscriber, startPublicPageApp } from '../support/app-helpers';
import { devToolUrl, startKabari, type KabariServer } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';
import { call, signUpLocalSubscriber, signUpSubscriber } from '../support/subscriber';

// Paying the Indonesian way in the local trial: the sandbox processor offers QRIS, e-wallets and bank transfers for
// the rupiah price on /id, and its "Simulate payment" stands in for the gateway's notification.

let counter = 0;
const newEmail = () => `e2e-local-pay-${Date.now()}-${(counter += 1)}@example.com`;

/** The Indonesian visitor's path into the sign-up's payment step: the home search, the account, then payment. */
async function openPaymentStep(page: Page): Promise<Locator> {
  await page.goto('/id/');
  await startPublicPageApp(page);
  await page.getByLabel('Nomor ponsel').fill('812 3456 7890');
  await page.getByRole('button', { name: 'Cari' }).click();
  const facts = await dialogOpened(page.getByRole('dialog', { name: 'Tentang nomor ini' }));
  await facts.getByRole('button', { name: 'Lanjutkan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Buat akun Anda' });
  await expect(dialog.getByLabel('Email')).toBeFocused();
  // Refused while empty: each field says what it lacks and the cursor goes to the first one.
  await dialog.getByRole('button', { name: 'Lanjut ke pembayaran' }).click();
  await expect(dialog.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Email')).toBeFocused();
  await expect(dialog.getByLabel('Email')).toHaveAccessibleDescription(/^Silakan masukkan alamat email Anda/);
  expect(await axeViolations(page), 'the account step with its errors at 360 px').toEqual([]);
  const email = newEmail();
  await dialog.getByLabel('Email').fill(email);
  // Escape, even twice, leaves the half-filled form open: only its close button closes it.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog.getByLabel('Email')).toHaveValue(email);
  await expect(dialog.getByLabel('Email')).toBeVisible();
  await dialog.getByLabel('Nama Anda').fill('Rina');
  await dialog.getByRole('checkbox', { name: /18 tahun atau lebih/ }).check();
  await dialog
    .getByRole('checkbox', { name: /Ketentuan Penggunaan/ })
    .first()
    .check();
  await dialog.getByRole('button', { name: 'Lanjut ke pembayaran' }).click();
  await expect(dialog.getByText('Langkah 2 dari 2: pembayaran')).toBeVisible();
  return dialog;
}

test.describe('QRIS, e-wallets and bank transfers (/id, the local trial)', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('a visitor signs up with QRIS at 360 px, comes back to the code, simulates the payment and lands on the dashboard', async ({
    page,
  }) => {
    const dialog = await openPaymentStep(page);
    const methods = dialog.getByRole('group', { name: 'Metode pembayaran' });
    await expect(methods.getByRole('radio').first()).toHaveAccessibleName('QRIS');
    await expect(methods.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    await expect(methods.getByRole('radio', { name: /^E-wallet: GoPay, ShopeePay/ })).toBeVisible();
    await expect(methods.getByRole('radio', { name: /^Virtual Account bank: BCA, BNI, BRI, Mandiri/ })).toBeVisible();
    await expect(methods.getByRole('radio', { name: 'Kartu' })).toBeVisible();
    // QRIS is not charged again by itself, and the terms say so; the card renews, and they say that instead.
    const summary = dialog.getByRole('region', { name: 'Yang Anda bayar' });
    await expect(
      summary.getByText(/^Setelah itu, tidak ada tagihan otomatis: untuk melanjutkan langganan/),
    ).toBeVisible();
    await expect(summary.getByText(/ditagih .+ setiap \d+ hari/)).toHaveCount(0);
    expect(await axeViolations(page), 'the payment step at 360 px').toEqual([]);

    // The bank choice by keyboard, then back to QRIS.
    await methods.getByRole('radio', { name: 'QRIS' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('group', { name: 'Pilih bank' }).getByRole('radio', { name: 'BCA' })).toBeChecked();
    expect(await axeViolations(page), 'the bank choice at 360 px').toEqual([]);
    await methods.getByRole('radio', { name: 'Kartu' }).check();
    await expect(summary.getByText(/^Mulai .+, Anda ditagih .+ setiap 30 hari/)).toBeVisible();
    await methods.getByRole('radio', { name: 'QRIS' }).check();
    await expect(summary.getByText(/^Setelah itu, tidak ada tagihan otomatis/)).toBeVisible();

    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }).click();

    await expect(page).toHaveURL(/\/id\/register\?id=/);
    const qr = page.getByRole('img', { name: /^Kode QR untuk membayar Rp/ });
    await expect(qr).toBeVisible();
    await expect(page.getByText('Pindai kode QR ini dengan aplikasi bank atau e-wallet mana pun')).toBeVisible();
    await expect(page.getByRole('timer')).toHaveText(/^\d+:\d\d$/);
    expect(await axeViolations(page), 'the QRIS waiting view at 360 px').toEqual([]);

    // Closed and opened again: the same code, from registerQuery's payment.
    const code = await qr.locator('path').getAttribute('d');
    await page.goto(page.url());
    await expect(qr).toBeVisible();
    expect(await qr.locator('path').getAttribute('d')).toBe(code);

    await page.getByRole('button', { name: 'Simulasikan pembayaran (sandbox: tidak ada uang yang berpindah)' }).click();
    await expect(page).toHaveURL(/\/id\/dashboard\/modules\/SuccessModal$/);
    await expect(page.getByRole('dialog', { name: 'Selamat datang di Kabari' })).toBeVisible();
  });
});

test.describe('paying again in rupiah with QRIS (a Kabari with the dev billing tools)', () => {
  // Expiring a subscription (/dev/subscriptions/expire) and a pass of the renewal job, which sends the reminders to
  // pay (/dev/subscriptions/run-renewals), are served only when asked for: a Kabari of its own.
  let kabari: KabariServer;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    kabari = await startKabari({ DEV_BILLING_TOOLS: 'true' });
  });
  test.afterAll(async () => {
    await kabari?.stop();
  });
  test.use({ viewport: { width: 360, height: 740 } });

  test('the expired state offers QRIS first, shows the code in the dialog, and the simulated payment renews', async ({
    page,
    context,
  }) => {
    const subscriber = await signUpSubscriber(kabari.url, { locale: 'id' });
    const expired = await fetch(devToolUrl(kabari.url, '/dev/subscriptions/expire'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: subscriber.email }),
    });
    expect(expired.status).toBe(200);
    await signInAsSubscriber(context, kabari.url, subscriber);
    await page.goto(`${kabari.url}/id/dashboard/`);
    const dialog = page.getByRole('dialog', { name: 'Langganan Anda sudah berakhir' });
    await expect(dialog.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    await expect(
      dialog.getByRole('region', { name: 'Yang Anda bayar' }).getByText(/^Setelah itu, tidak ada tagihan otomatis/),
    ).toBeVisible();
    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }).click();
    await expect(dialog.getByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeVisible();
    await expect(dialog.getByRole('timer')).toHaveText(/^\d+:\d\d$/);
    expect(await axeViolations(page), 'the renewal waiting for QRIS at 360 px').toEqual([]);
    await dialog
      .getByRole('button', { name: 'Simulasikan pembayaran (sandbox: tidak ada uang yang berpindah)' })
      .click();
    await expect(dialog.getByText('Langganan Anda aktif kembali.')).toBeVisible();
  });

  test('a subscriber who paid with QRIS follows the reminder to pay, pays the next period with QRIS and sees it paid', async ({
    page,
    context,
  }) => {
    // Signed up with QRIS: a first day that renews only when paid, so its end is within the 7 days of paying ahead.
    const subscriber = await signUpLocalSubscriber(kabari.url, { locale: 'id' });
    const validUntil = async () => {
      const info = await call<{ validUntil: string }>(
        kabari.url,
        '/api/v1/personnal/subscribe/info',
        {},
        {
          authorization: subscriber.token,
        },
      );
      return new Date(info.validUntil);
    };
    const firstDayEnds = await validUntil();
    // The renewal job's pass sends the first day's reminder to pay (1 day before it ends), with its link.
    const renewals = await fetch(devToolUrl(kabari.url, '/dev/subscriptions/run-renewals'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: subscriber.email }),
    });
    expect(renewals.status).toBe(200);
    const reminder = (await outboxMessages(kabari.url, subscriber.email)).find((message) =>
      message.bodyText.includes('?renew=1'),
    );
    const link = /https?:\/\/\S+\?renew=1/.exec(reminder?.bodyText ?? '')?.[0];
    expect(link, 'the reminder to pay links to the payment').toBeDefined();
    const linked = new URL(link!);
    expect(linked.pathname).toBe('/id/dashboard/modules/MySubscription');

    await signInAsSubscriber(context, kabari.url, subscriber);
    // The link's path on this server's own address (a local trial's links name localhost, the session 127.0.0.1).
    await page.goto(`${kabari.url}${linked.pathname}${linked.search}`);
    const dialog = page.getByRole('dialog', { name: 'Bayar periode berikutnya' });
    const methods = dialog.getByRole('group', { name: 'Metode pembayaran' });
    await expect(methods.getByRole('radio').first()).toHaveAccessibleName('QRIS');
    await expect(methods.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    await expect(methods.getByRole('radio', { name: /^E-wallet: GoPay, ShopeePay/ })).toBeVisible();
    await expect(methods.getByRole('radio', { name: /^Virtual Account bank: BCA, BNI, BRI, Mandiri/ })).toBeVisible();
    // Before the period ends the server takes only these: no card is offered.
    await expect(methods.getByRole('radio', { name: 'Kartu' })).toHaveCount(0);
    await expect(dialog.getByText(/saat periode Anda sekarang berakhir\.$/)).toBeVisible();
    expect(await axeViolations(page), 'the payment choices for the next period at 360 px').toEqual([]);

    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }).click();
    await expect(dialog.getByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeVisible();
    await expect(dialog.getByRole('timer')).toHaveText(/^\d+:\d\d$/);
    expect(await axeViolations(page), 'the next period waiting for QRIS at 360 px').toEqual([]);
    await dialog
      .getByRole('button', { name: 'Simulasikan pembayaran (sandbox: tidak ada uang yang berpindah)' })
      .click();
    await expect(dialog.getByText('Periode berikutnya sudah dibayar.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Selesai' }).click();
    await expect(dialog).toBeHidden();

    // My subscription, read again from the server: the paid period follows the first day, 30 days on.
    const paidUntil = await validUntil();
    expect(paidUntil.getTime() - firstDayEnds.getTime()).toBe(30 * 24 * 3600_000);
    const day = new Intl.DateTimeFormat('id-ID', { dateStyle: 'long' }).format(paidUntil);
    const mySubscription = page.getByRole('dialog', { name: 'Langganan Saya' });
    await expect(mySubscription.getByTestId('next-period-paid')).toHaveText(
      `Periode berikutnya sudah dibayar: langganan Anda berlaku sampai ${day}.`,
    );
    await expect(mySubscription.getByRole('button', { name: 'Bayar periode berikutnya' })).toHaveCount(0);
    expect(await axeViolations(page), 'My subscription with the next period paid at 360 px').toEqual([]);
  });

  test('signed out, the reminder’s link leads through signing in to the payment choices; a payment closed is shown again', async ({
    page,
  }) => {
    const password = `pw-${Date.now()}`;
    const subscriber = await signUpLocalSubscriber(kabari.url, { locale: 'id', password });
    const renewals = await fetch(devToolUrl(kabari.url, '/dev/subscriptions/run-renewals'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: subscriber.email }),
    });
    expect(renewals.status).toBe(200);
    const reminder = (await outboxMessages(kabari.url, subscriber.email)).find((message) =>
      message.bodyText.includes('?renew=1'),
    );
    const linked = new URL(/https?:\/\/\S+\?renew=1/.exec(reminder?.bodyText ?? '')![0]);

    // Not signed in in this browser: the guard asks for signing in and remembers the page.
    await page.goto(`${kabari.url}${linked.pathname}${linked.search}`);
    await expect(page).toHaveURL(/\/id\/\?next=%2Fid%2Fdashboard%2Fmodules%2FMySubscription%3Frenew%3D1$/);
    const login = await dialogOpened(page.getByRole('dialog', { name: 'Masuk' }));
    await login.getByLabel('Email').fill(subscriber.email);
    await login.getByLabel('Kata sandi').fill(password);
    await login.getByRole('button', { name: 'Masuk' }).click();

    await expect(page).toHaveURL(/\/id\/dashboard\/modules\/MySubscription\?renew=1$/);
    const dialog = page.getByRole('dialog', { name: 'Bayar periode berikutnya' });
    await expect(dialog.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }).click();
    const qr = dialog.getByRole('img', { name: /^Kode QR untuk membayar Rp/ });
    await expect(qr).toBeVisible();
    const code = await qr.locator('path').getAttribute('d');

    // Closed, and the page opened again: My subscription says a payment waits, and shows the same code again.
    await dialog.getByRole('button', { name: 'Tutup' }).click();
    await expect(dialog).toBeHidden();
    await page.goto(`${kabari.url}/id/dashboard/modules/MySubscription`);
    const mySubscription = page.getByRole('dialog', { name: 'Langganan Saya' });
    const waiting = mySubscription.getByTestId('waiting-payment');
    await expect(waiting).toContainText('Ada pembayaran yang menunggu');
    await expect(waiting).toContainText(/dengan QRIS, bisa dibayar sampai/);
    await expect(mySubscription.getByRole('button', { name: 'Bayar periode berikutnya' })).toHaveCount(0);
    expect(await axeViolations(page), 'a payment waiting, in My subscription at 360 px').toEqual([]);
    await waiting.getByRole('button', { name: 'Tampilkan kode QR' }).click();
    const reopened = page.getByRole('dialog', { name: 'Bayar periode berikutnya' });
    await expect(reopened.getByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeVisible();
    expect(
      await reopened
        .getByRole('img', { name: /^Kode QR/ })
        .locator('path')
        .getAttribute('d'),
    ).toBe(code);
    await expect(reopened.getByRole('timer')).toHaveText(/^\d+:\d\d$/);
    await reopened.getByRole('button', { name: 'Tutup' }).click();

    // The same in English.
    await page.goto(`${kabari.url}/dashboard/modules/MySubscription`);
    const english = page.getByRole('dialog', { name: 'My subscription' }).getByTestId('waiting-payment');
    await expect(english).toContainText('A payment is waiting');
    await expect(english.getByRole('button', { name: 'Show the code' })).toBeVisible();
    expect(await axeViolations(page), 'a payment waiting, in English at 360 px').toEqual([]);
  });

  test('a virtual account chosen by mistake is cancelled from My subscription by keyboard, and another way is paid', async ({
    page,
    context,
  }) => {
    const subscriber = await signUpLocalSubscriber(kabari.url, { locale: 'id' });
    // The next period started by BCA virtual account, as the payment dialog starts it: it would wait 24 hours.
    const started = await call<{ registerId: string }>(
      kabari.url,
      '/api/v1/personnal/subscribe/renew',
      { method: 'POST', body: JSON.stringify({ method: 'local', channel: 'bca_va' }) },
      { authorization: subscriber.token },
    );
    await signInAsSubscriber(context, kabari.url, subscriber);
    await page.goto(`${kabari.url}/id/dashboard/modules/MySubscription`);
    const mySubscription = page.getByRole('dialog', { name: 'Langganan Saya' });
    const waiting = mySubscription.getByTestId('waiting-payment');
    await expect(waiting).toContainText(/lewat transfer bank BCA, bisa dibayar sampai/);

    await waiting.getByRole('button', { name: 'Pilih cara bayar lain' }).focus();
    await page.keyboard.press('Enter');
    const question = waiting.getByRole('group', {
      name: /^Nomor virtual account yang sekarang tidak akan bisa dipakai lagi, jadi jangan transfer ke nomor itu\./,
    });
    await expect(question.getByText(/^Nomor virtual account yang sekarang/)).toBeFocused();
    expect(await axeViolations(page), 'cancelling a waiting payment, in Indonesian at 360 px').toEqual([]);
    await page.keyboard.press('Tab');
    await expect(question.getByRole('button', { name: 'Ya, hentikan pembayaran ini' })).toBeFocused();
    await page.keyboard.press('Enter');

    // The choices open again, saying the previous payment was stopped; its number can no longer be paid.
    const dialog = page.getByRole('dialog', { name: 'Bayar periode berikutnya' });
    await expect(
      dialog.getByRole('status').filter({ hasText: 'Pembayaran sebelumnya sudah dihentikan.' }),
    ).toBeVisible();
    await expect(dialog.getByRole('radio', { name: 'QRIS' })).toBeChecked();
    expect(await axeViolations(page), 'the choices again after cancelling, at 360 px').toEqual([]);
    const ended = await call<{ state: string; failureCode?: string }>(
      kabari.url,
      `/api/v1/personnal/registerQuery/${started.registerId}`,
    );
    expect(ended).toMatchObject({ state: 'sign_failed', failureCode: 'payment_cancelled' });

    await dialog.getByRole('checkbox', { name: /ketentuan langganan/ }).check();
    await dialog.getByRole('button', { name: /^Bayar .+ dengan QRIS$/ }).click();
    await expect(dialog.getByRole('img', { name: /^Kode QR untuk membayar Rp/ })).toBeVisible();
    await dialog
      .getByRole('button', { name: 'Simulasikan pembayaran (sandbox: tidak ada uang yang berpindah)' })
      .click();
    await expect(dialog.getByText('Periode berikutnya sudah dibayar.')).toBeVisible();
  });
});
