import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { dialogOpened, signInAsSubscriber } from '../support/app-helpers';
import { outboxMessages } from '../support/outbox';
import { signUpSubscriber } from '../support/subscriber';

// The subscriber's own data, on the real server: the code for a new email address is read from the local outbox
// (/dev/outbox, served to this machine while no SMTP is configured).

/** Everything in the history fits the viewport's width: nothing is cut off or needs a sideways scroll. */
async function overflowOf(page: Page): Promise<number> {
  return page.evaluate(() => {
    const table = document.querySelector('.my-subscription__table')!;
    const cells = [...table.querySelectorAll('td')].map((cell) => cell.getBoundingClientRect().right);
    return Math.max(document.documentElement.scrollWidth, ...cells) - window.innerWidth;
  });
}

/** The payment history reads on a 360 px phone: stacked, each value with its column's name, nothing cut off. */
async function expectHistoryOnPhone(
  page: Page,
  screenshot: string,
  { dialog, title, paid, label }: { dialog: string; title: string; paid: string; label: string },
): Promise<void> {
  const mine = page.getByRole('dialog', { name: dialog });
  const history = mine.getByRole('table', { name: title });
  await expect(history.getByRole('cell', { name: paid })).toBeVisible();
  // Stacked: each value carries its column's name, and nothing runs past the screen's edge.
  await expect(history.getByRole('cell').nth(2)).toHaveAttribute('data-label', label);
  expect(await overflowOf(page)).toBeLessThanOrEqual(0);
  expect(await axeViolations(page)).toEqual([]);
  await history.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshot });
}

// Each test signs one subscriber up and opens My subscription once; its steps go on from where the last left it.
test.describe('my account', () => {
  test('Indonesian: the payment history reads on a 360 px phone; the email about a decline turned off stays off', async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { locale: 'id' }));
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/id/dashboard/modules/MySubscription');

    await test.step('the payment history reads on a 360 px phone', async () => {
      await expectHistoryOnPhone(page, testInfo.outputPath('payment-history-360-id.png'), {
        dialog: 'Langganan Saya',
        title: 'Riwayat pembayaran',
        paid: 'Berhasil',
        label: 'Jumlah',
      });
    });

    await test.step('turns the email about a decline off in the account tab; it stays off', async () => {
      await page.setViewportSize({ width: 1280, height: 720 });
      const mine = await dialogOpened(page.getByRole('dialog', { name: 'Langganan Saya' }));
      await mine.getByRole('tab', { name: 'Akun' }).click();
      const notices = mine.getByRole('region', { name: 'Pemberitahuan tentang permintaan Anda' });
      const byEmail = notices.getByRole('list', { name: 'Lewat email' });
      await byEmail.getByRole('checkbox', { name: 'Saat ia menolak' }).click();
      await expect(notices.getByRole('status')).toHaveText('Tersimpan.');
      await page.reload();
      await mine.getByRole('tab', { name: 'Akun' }).click();
      await expect(byEmail.getByRole('checkbox', { name: 'Saat ia menolak' })).not.toBeChecked();
      // The same notice as a notification is its own switch: still on.
      await expect(
        notices.getByRole('list', { name: 'Sebagai notifikasi' }).getByRole('checkbox', { name: 'Saat ia menolak' }),
      ).toBeChecked();
      await expect(byEmail.getByRole('checkbox', { name: 'Saat ia membagikan lokasinya' })).toBeChecked();
    });
  });

  test('on a phone: the payment history reads at 360 px; the email changes with the code sent to the new address, and the old one is told', async ({
    page,
    context,
    baseURL,
  }, testInfo) => {
    const subscriber = await signUpSubscriber(baseURL!, { locale: 'en', password: 'first-pass-1' });
    await signInAsSubscriber(context, baseURL!, subscriber);
    const newEmail = `moved-${subscriber.email}`;
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/dashboard/modules/MySubscription');

    await test.step('the payment history reads on a 360 px phone', async () => {
      await expectHistoryOnPhone(page, testInfo.outputPath('payment-history-360-en.png'), {
        dialog: 'My subscription',
        title: 'Payment history',
        paid: 'Paid',
        label: 'Amount',
      });
    });

    await test.step('changes the email with the code sent to the new address; the old one is told', async () => {
      const mine = await dialogOpened(page.getByRole('dialog', { name: 'My subscription' }));
      await mine.getByRole('tab', { name: 'Account' }).click();
      const part = mine.getByRole('region', { name: 'Email address' });
      await expect(part).toBeVisible();
      expect(await axeViolations(page), 'the account tab').toEqual([]);
      await part.getByLabel('New email address').fill(newEmail);
      await part.getByLabel('Current password').fill('first-pass-1');
      await part.getByRole('button', { name: 'Send a code to the new address' }).click();
      await expect(part.getByRole('status')).toContainText(`We sent a code to ${newEmail}.`);
      await part.scrollIntoViewIfNeeded();
      await page.screenshot({ path: testInfo.outputPath('email-code-step-360.png') });

      let code: string | undefined;
      await expect
        .poll(async () => {
          code = (await outboxMessages(baseURL!, newEmail))[0]?.bodyText.match(/\b(\d{6})\b/)?.[1];
          return code;
        })
        .toMatch(/^\d{6}$/);
      await part.getByLabel('Verification code').fill(code!);
      await part.getByRole('button', { name: 'Confirm the new address' }).click();
      await expect(part.getByText(`Current email: ${newEmail}`)).toBeVisible();
      await expect(part.getByRole('status')).toContainText(`Your email address is now ${newEmail}.`);
      const told = await outboxMessages(baseURL!, subscriber.email);
      expect(told.map((message) => message.subject)).toContain('Your Kabari email address was changed');
    });
  });
});
