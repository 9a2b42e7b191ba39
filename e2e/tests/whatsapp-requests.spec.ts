import type { Page } from '@playwright/test';
import { expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { withOwnKabari } from '../support/own-server';
import { signUpSubscriber } from '../support/subscriber';
import { chooseMessageInFacts, signInAsSubscriber, toasts } from '../support/app-helpers';
import { devToolUrl } from '../support/kabari-server';

// A request by WhatsApp in the local trial (no Twilio): the message stays in the local outbox as a WhatsApp message,
// whose buttons play Twilio's receipts and the recipient's STOP reply; the requester's history follows them live,
// without a reload.
const test = withOwnKabari({ DEV_OUTBOX: 'true' });
test.describe.configure({ timeout: 120_000 });

const journeys = [
  {
    locale: 'en',
    path: '/dashboard',
    number: '+6281234567851',
    typed: '+62 812-3456-7851',
    say: {
      newSearch: 'New search',
      mobileNumber: 'Mobile number',
      find: 'Find',
      aboutNumber: 'About this number',
      chooseMessage: 'Choose a message',
      sendBy: 'Send by',
      whatsApp: 'WhatsApp',
      sms: 'SMS',
      send: 'Send',
      sent: 'Request sent by WhatsApp',
      outbox: 'In the local outbox, not sent (no WhatsApp provider is configured)',
      delivered: 'Delivered',
      read: 'Read',
      intro: "We send a WhatsApp message, or an SMS if you prefer, from Kabari's own number.",
      stopWord: 'STOP',
      confirmation: 'Kabari: done. This number will get no more location requests',
      declined: 'Declined',
    },
  },
  {
    locale: 'id',
    path: '/id/dashboard',
    number: '+6281234567852',
    typed: '+62 812-3456-7852',
    say: {
      newSearch: 'Pencarian baru',
      mobileNumber: 'Nomor ponsel',
      find: 'Cari',
      aboutNumber: 'Tentang nomor ini',
      chooseMessage: 'Pilih pesan',
      sendBy: 'Kirim lewat',
      whatsApp: 'WhatsApp',
      sms: 'SMS',
      send: 'Kirim',
      sent: 'Permintaan terkirim lewat WhatsApp',
      outbox: 'Di kotak keluar lokal, tidak terkirim (penyedia WhatsApp belum dikonfigurasi)',
      delivered: 'Sampai ke penerima',
      read: 'Sudah dibaca',
      intro: 'Kami mengirim pesan WhatsApp, atau SMS jika Anda memilihnya, dari nomor Kabari sendiri.',
      stopWord: 'BERHENTI',
      confirmation: 'Kabari: selesai. Nomor ini tidak akan menerima permintaan lokasi lagi',
      declined: 'Ditolak',
    },
  },
] as const;

/** The local outbox page, as a developer opens it, showing the messages to one number. */
async function openOutbox(page: Page, baseURL: string, number: string): Promise<void> {
  const url = devToolUrl(baseURL, '/dev/outbox');
  url.searchParams.set('format', 'html');
  url.searchParams.set('recipient', number);
  await page.goto(url.toString());
}

for (const { locale, path, number, typed, say } of journeys) {
  test(`[${locale}] a request by WhatsApp shows delivered, then read, live`, async ({ page, context, baseURL }) => {
    await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { displayName: 'Rina Wijaya' }));
    await page.goto(path);
    const search = page.getByRole('region', { name: say.newSearch });
    // This server sends WhatsApp (the local outbox keeps it): the intro says so.
    await expect(search).toContainText(say.intro);
    await search.getByLabel(say.mobileNumber).fill(typed);
    await search.getByRole('button', { name: say.find }).click();
    const message = page.getByRole('dialog', { name: say.chooseMessage });
    await chooseMessageInFacts(page.getByRole('dialog', { name: say.aboutNumber }), message, say.chooseMessage);

    // WhatsApp comes first; SMS stays chosen until WhatsApp is picked (here by keyboard, in the labelled group).
    const sendBy = message.getByRole('group', { name: say.sendBy });
    await expect(sendBy.getByRole('radio', { name: say.sms })).toBeChecked();
    await sendBy.getByRole('radio', { name: say.sms }).focus();
    await page.keyboard.press('ArrowUp');
    await expect(sendBy.getByRole('radio', { name: say.whatsApp })).toBeChecked();
    await expect(message.getByTestId('message-preview')).toContainText('Rina Wijaya');
    expect(await axeViolations(page), 'the message dialog offering WhatsApp').toEqual([]);
    await message.getByRole('button', { name: say.send }).click();
    await expect(toasts(page).filter({ hasText: say.sent })).toBeVisible();
    await expect(message).toBeHidden();

    const row = page.getByTestId('request-row').filter({ hasText: number });
    await expect(row).toContainText(say.whatsApp);
    await expect(row.getByTestId('request-delivery')).toHaveText(say.outbox);

    // The outbox, in a tab of its own, shows it as WhatsApp; its buttons play the receipts, and the history follows.
    const outbox = await context.newPage();
    await openOutbox(outbox, baseURL!, number);
    // The page lists every message again after a button: this request's is the one to this number.
    const sent = outbox.locator('article').filter({ hasText: number });
    await expect(sent.getByRole('heading', { name: 'WhatsApp', level: 2 })).toBeVisible();
    await sent.getByRole('button', { name: 'Simulate “delivered”' }).click();
    await expect(sent.getByText('receipt: delivered')).toBeVisible();
    await expect(row.getByTestId('request-delivery')).toHaveText(say.delivered);
    await sent.getByRole('button', { name: 'Simulate “read”' }).click();
    await expect(sent.getByText('receipt: read')).toBeVisible();
    await expect(row.getByTestId('request-delivery')).toHaveText(say.read);

    // The recipient answers the WhatsApp message with the stop word of its language: opted out, the request
    // declined live, and one confirmation back by WhatsApp (newest first).
    await sent
      .getByRole('button', { name: `Reply “${say.stopWord}”` })
      .first()
      .click();
    await expect(sent).toHaveCount(2);
    await expect(sent.first().getByRole('heading', { name: 'WhatsApp', level: 2 })).toBeVisible();
    await expect(sent.first().locator('pre')).toContainText(say.confirmation);
    await expect(row).toContainText(say.declined);
  });
}

test('[en] a number without WhatsApp gets the request by SMS instead, and the history says so', async ({
  page,
  context,
  baseURL,
}) => {
  const number = '+6281234567853';
  await signInAsSubscriber(context, baseURL!, await signUpSubscriber(baseURL!, { displayName: 'Sari Wijaya' }));
  await page.goto('/dashboard');
  const search = page.getByRole('region', { name: 'New search' });
  await search.getByLabel('Mobile number').fill('+62 812-3456-7853');
  await search.getByRole('button', { name: 'Find' }).click();
  const message = page.getByRole('dialog', { name: 'Choose a message' });
  await chooseMessageInFacts(page.getByRole('dialog', { name: 'About this number' }), message, 'Choose a message');
  await message.getByRole('radio', { name: 'WhatsApp' }).check();
  await expect(message.getByTestId('message-preview')).toContainText('Sari Wijaya');
  await message.getByRole('button', { name: 'Send' }).click();
  await expect(message).toBeHidden();
  const row = page.getByTestId('request-row').filter({ hasText: number });

  const outbox = await context.newPage();
  await openOutbox(outbox, baseURL!, number);
  const sent = outbox.locator('article').filter({ hasText: number });
  await sent.getByRole('button', { name: 'Simulate “failed” (no WhatsApp: SMS instead)' }).click();
  // The SMS sent instead, newest first.
  const sms = sent.first();
  await expect(sms.getByRole('heading', { name: 'SMS', level: 2 })).toBeVisible();
  await expect(sms.locator('pre')).toContainText('Sari Wijaya asks to see your location');
  await expect(row.getByTestId('request-whatsapp-fallback')).toHaveText('Sent by SMS instead (no WhatsApp)');
  await expect(row.getByTestId('request-delivery')).toHaveText(
    'In the local outbox, not sent (no SMS provider is configured)',
  );
  expect(await axeViolations(page), 'the history with an SMS sent instead').toEqual([]);
});
