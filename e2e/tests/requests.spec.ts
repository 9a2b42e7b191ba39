import type { BrowserContext, Page } from '@playwright/test';
import { expect } from '../support/fixtures';
import { axeViolations } from '../support/accessibility';
import { withOwnKabari } from '../support/own-server';
import { signUpSubscriber } from '../support/subscriber';
import {
  chooseMessageInFacts,
  dialogOpened,
  signInAsSubscriber,
  startPublicPageApp,
  toasts,
} from '../support/app-helpers';
import { devToolUrl } from '../support/kabari-server';
import { outboxMessages, simulateReceipt } from '../support/outbox';

// Location requests from the requester's side, against a Kabari of its own with the local outbox open,
// where the messages sent can be read.
const test = withOwnKabari({ DEV_OUTBOX: 'true' });
test.describe.configure({ timeout: 120_000 });

async function signIn(context: BrowserContext, baseURL: string, displayName: string): Promise<void> {
  await signInAsSubscriber(context, baseURL, await signUpSubscriber(baseURL, { displayName }));
}

function fact(dialog: ReturnType<Page['getByRole']>, name: string) {
  return dialog.getByTestId('number-facts').locator('div', { has: dialog.page().getByText(name, { exact: true }) });
}

/** What each journey reads on the page, in each language (the apps' own texts). */
const texts = {
  en: {
    path: '/dashboard',
    newSearch: 'New search',
    mobileNumber: 'Mobile number',
    find: 'Find',
    aboutNumber: 'About this number',
    lookedUp: 'Numbering plan looked up',
    country: 'Country',
    indonesia: 'Indonesia',
    lineType: 'Line type',
    mobile: 'Mobile',
    region: 'Region',
    unknown: 'Unknown',
    chooseMessage: 'Choose a message',
    to: 'To:',
    note: 'Your personal note',
    send: 'Send',
    cancel: 'Cancel',
    sentSms: 'Send SMS template success',
    sentEmail: 'Send Email template success',
    pending: 'Pending',
    notAnswered: 'Not answered yet',
    outboxSms: 'In the local outbox, not sent (no SMS provider is configured)',
    delivered: 'Delivered',
    outboxEmail: 'In the local outbox, not sent (no email provider is configured)',
    messageLimited: 'One message per number or email every 3 hours. You can send the next one to',
    byEmail: 'By email',
    emailLabel: 'Their email address',
    enterEmail: 'Please enter your email address',
    byLink: 'By link',
    linkTitle: 'Link title',
    lifetime: 'A link works for 7 days unless you cancel it.',
    generate: 'Generate link',
    yourLink: 'Your link',
    copy: 'Copy',
    copied: 'Short link copy success',
    newLink: 'Generate a new link',
    linkLimited: 'One new link every 3 hours. You can create the next one on',
    serverLimited:
      /^Kabari sends one request to the same number every 3 hours\. The next one is possible in \d+ minutes\.$/,
  },
  id: {
    path: '/id/dashboard',
    newSearch: 'Pencarian baru',
    mobileNumber: 'Nomor ponsel',
    find: 'Cari',
    aboutNumber: 'Tentang nomor ini',
    lookedUp: 'Data penomoran sudah ditemukan',
    country: 'Negara',
    indonesia: 'Indonesia',
    lineType: 'Jenis saluran',
    mobile: 'Ponsel',
    region: 'Wilayah',
    unknown: 'Tidak diketahui',
    chooseMessage: 'Pilih pesan',
    to: 'Kepada:',
    note: 'Catatan pribadi Anda',
    send: 'Kirim',
    cancel: 'Batal',
    sentSms: 'Template SMS berhasil dikirim',
    sentEmail: 'Template email berhasil dikirim',
    pending: 'Menunggu',
    notAnswered: 'Belum dijawab',
    outboxSms: 'Di kotak keluar lokal, tidak terkirim (penyedia SMS belum dikonfigurasi)',
    delivered: 'Sampai ke penerima',
    outboxEmail: 'Di kotak keluar lokal, tidak terkirim (penyedia email belum dikonfigurasi)',
    messageLimited: 'Satu pesan per nomor atau email setiap 3 jam.',
    byEmail: 'Email',
    emailLabel: 'Alamat email penerima',
    enterEmail: 'Silakan masukkan alamat email',
    byLink: 'Tautan',
    linkTitle: 'Judul tautan',
    lifetime: 'Tautan berlaku selama 7 hari kecuali Anda membatalkannya.',
    generate: 'Buat tautan',
    yourLink: 'Tautan Anda',
    copy: 'Salin',
    copied: 'Tautan berhasil disalin',
    newLink: 'Buat tautan baru',
    linkLimited: 'Satu tautan baru setiap 3 jam.',
    serverLimited:
      /^Kabari mengirim satu permintaan ke nomor yang sama setiap 3 jam\. Permintaan berikutnya bisa dikirim dalam \d+ menit\.$/,
  },
} as const;

const journeys = [
  { locale: 'en', number: '+6281234567801', typed: '+62 812-3456-7801', name: 'Rina' },
  { locale: 'id', number: '+6281234567804', typed: '+62 812-3456-7804', name: 'Sari' },
] as const;

for (const { locale, number, typed, name } of journeys) {
  const say = texts[locale];

  // One subscriber asks three ways in turn (each has its own 3-hour limit: per number, per email, per link), so the
  // app starts once for the three.
  test(`[${locale}] a subscriber asks by SMS, then by email, then by link, each with its limit`, async ({
    page,
    context,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-write'], { origin: baseURL });
    const displayName = `${name} Wijaya`;
    await signIn(context, baseURL!, displayName);
    await page.goto(say.path);
    const search = page.getByRole('region', { name: say.newSearch });

    await test.step('searches a number, sees its facts, sends an SMS with a note, then meets the 3-hour limit', async () => {
      await search.getByLabel(say.mobileNumber).fill(typed);
      await search.getByRole('button', { name: say.find }).click();

      const facts = page.getByRole('dialog', { name: say.aboutNumber });
      await expect(facts.getByText(say.lookedUp)).toBeVisible();
      await expect(fact(facts, say.country)).toContainText(say.indonesia);
      await expect(fact(facts, say.lineType)).toContainText(say.mobile);
      await expect(fact(facts, say.region)).toContainText(say.unknown);
      await expect(facts).not.toContainText(/tower|menara/i);
      const message = page.getByRole('dialog', { name: say.chooseMessage });
      await chooseMessageInFacts(facts, message, say.chooseMessage);
      await expect(message.getByText(`${say.to} ${number}`)).toBeVisible();
      const note = `Home yet? Love, ${name}`;
      await message.getByLabel(say.note).fill(note);
      const preview = message.getByTestId('message-preview');
      await expect(preview).toContainText(note);
      await expect(preview).toContainText(displayName);
      await message.getByRole('button', { name: say.send }).click();
      await expect(toasts(page).filter({ hasText: say.sentSms })).toBeVisible();
      await expect(message).toBeHidden();

      const row = page.getByTestId('request-row').filter({ hasText: number });
      await expect(row).toContainText(say.pending);
      await expect(row).toContainText(say.notAnswered);
      // No SMS provider here: the history says the message stayed in the local outbox, never "sent".
      await expect(row.getByTestId('request-delivery')).toHaveText(say.outboxSms);
      expect(await axeViolations(page), 'the history with a request').toEqual([]);
      const sent = await outboxMessages(baseURL!, number);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ channel: 'sms', recipient: number });
      expect(sent[0]?.bodyText).toContain(note);
      expect(sent[0]?.bodyText).toContain(displayName);
      // The provider's delivery receipt (from the outbox's tools, as Twilio's callback would): the row says so, live.
      await simulateReceipt(baseURL!, sent[0]!.id, 'delivered');
      await expect(row.getByTestId('request-delivery')).toHaveText(say.delivered);

      // The same number again: the limit is shown before trying, and the server refuses with the time.
      await search.getByRole('button', { name: say.find }).click();
      await chooseMessageInFacts(facts, message, say.chooseMessage);
      await expect(message.getByRole('alert')).toContainText(say.messageLimited);
      await expect(message.getByRole('alert')).toContainText(number);
      await expect(message.getByRole('button', { name: say.send })).toBeDisabled();
      expect(await axeViolations(page), 'the message dialog at its limit').toEqual([]);
      // The request carries the session's token cookie, and the page's language.
      const templates = await (
        await page.request.get(`/api/v1/requests/templates?channel=sms&locale=${locale}`)
      ).json();
      const refused = await page.request.post('/api/v1/requests/sms', {
        data: { number, templateId: templates.data.items[0].id, note: '', locale },
        headers: { 'accept-language': locale },
      });
      expect(refused.status()).toBe(429);
      const refusal = await refused.json();
      expect(Date.parse(refusal.data.nextAllowedAt)).toBeGreaterThan(Date.now() + 2 * 3_600_000);
      expect(refusal.message).toMatch(say.serverLimited);
      expect(await outboxMessages(baseURL!, number)).toHaveLength(1);
      await message.getByRole('button', { name: say.cancel }).click();
      await expect(message).toBeHidden();
    });

    await test.step('asks by email with a note', async () => {
      const message = page.getByRole('dialog', { name: say.chooseMessage });
      const email = `budi-${locale}-${Date.now()}@example.com`;
      await search.getByRole('tab', { name: say.byEmail }).click();
      await search.getByRole('button', { name: say.chooseMessage }).click();
      await expect(search.getByText(say.enterEmail)).toBeVisible();
      expect(await axeViolations(page), 'the email tab with its error').toEqual([]);
      await search.getByLabel(say.emailLabel).fill(email);
      await search.getByRole('button', { name: say.chooseMessage }).click();

      const note = `Sampai rumah? ${name}`;
      await message.getByLabel(say.note).fill(note);
      await expect(message.getByTestId('message-preview')).toContainText(note);
      await message.getByRole('button', { name: say.send }).click();
      await expect(toasts(page).filter({ hasText: say.sentEmail })).toBeVisible();
      const row = page.getByTestId('request-row').filter({ hasText: email });
      await expect(row).toContainText(say.pending);
      await expect(row.getByTestId('request-delivery')).toHaveText(say.outboxEmail);
      const sent = await outboxMessages(baseURL!, email);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.bodyText).toContain(note);
      expect(sent[0]?.bodyText).toContain(displayName);
    });

    await test.step('generates a link, copies it, and is told when the next one is allowed', async () => {
      await search.getByRole('tab', { name: say.byLink }).click();
      // How long a link works comes from the server's LINK_EXPIRY_DAYS (7 by default here).
      await expect(search.getByText(say.lifetime)).toBeVisible();
      const title = `Mum, Sunday (${locale})`;
      await search.getByLabel(say.linkTitle).fill(title);
      await search.getByRole('button', { name: say.generate }).click();
      const url = search.getByLabel(`${say.yourLink}: ${title}`);
      await expect(url).toHaveValue(
        locale === 'id' ? /^http.+\/id\/enter-link\?token=/ : /^http.+\/enter-link\?token=/,
      );
      await search.getByRole('button', { name: say.copy }).click();
      await expect(toasts(page).filter({ hasText: say.copied })).toBeVisible();
      // Our pages may not read the clipboard (their Permissions-Policy says so): paste it, as the user would, into
      // a blank page of the same browser.
      const blank = await context.newPage();
      await blank.setContent('<textarea aria-label="paste"></textarea>');
      await blank.getByLabel('paste').press('ControlOrMeta+V');
      await expect(blank.getByLabel('paste')).toHaveValue(await url.inputValue());
      await blank.close();
      const row = page.getByTestId('request-row').filter({ hasText: title });
      await expect(row).toContainText(say.pending);
      // A link is shared by the requester, not delivered by Kabari: no delivery state is shown for it.
      await expect(row.getByTestId('request-delivery')).toHaveCount(0);

      await search.getByRole('button', { name: say.newLink }).click();
      await expect(search.getByRole('alert')).toContainText(say.linkLimited);
      await expect(search.getByRole('button', { name: say.generate })).toBeDisabled();
      expect(await axeViolations(page), 'the link tab at its limit').toEqual([]);
    });
  });
}

test('a recipient who replies STOP to the SMS is opted out: the next request to the number is refused', async ({
  page,
  context,
  baseURL,
}) => {
  const number = '+6281234567806';
  await signIn(context, baseURL!, 'Dewi Lestari');
  const templates = await (await page.request.get('/api/v1/requests/templates?channel=sms&locale=en')).json();
  const ask = () =>
    page.request.post('/api/v1/requests/sms', {
      data: { number, templateId: templates.data.items[0].id, note: '', locale: 'en' },
      headers: { 'accept-language': 'en' },
    });
  expect((await ask()).status()).toBe(200);
  expect(await outboxMessages(baseURL!, number)).toHaveLength(1);

  await test.step("the recipient answers STOP (the local outbox's Reply STOP, as Twilio would post it)", async () => {
    const outbox = devToolUrl(baseURL!, '/dev/outbox');
    outbox.searchParams.set('format', 'html');
    outbox.searchParams.set('recipient', number);
    await page.goto(outbox.toString());
    await page.locator('article', { hasText: number }).getByRole('button', { name: 'Reply “STOP”' }).click();
    // Back on the outbox: the confirmation, once, in the language of the request's SMS.
    const confirmation = 'Kabari: done. This number will get no more location requests through Kabari, from anyone.';
    await expect(page.locator('article', { hasText: confirmation })).toHaveCount(1);
    const sent = await outboxMessages(baseURL!, number);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.bodyText).toContain(confirmation);
  });

  await test.step('a new request to the number is refused with the opt-out message, before and on sending', async () => {
    await page.goto('/dashboard');
    const search = page.getByRole('region', { name: 'New search' });
    await search.getByLabel('Mobile number').fill(number);
    await search.getByRole('button', { name: 'Find' }).click();
    const message = page.getByRole('dialog', { name: 'Choose a message' });
    await chooseMessageInFacts(page.getByRole('dialog', { name: 'About this number' }), message, 'Choose a message');
    await expect(message.getByRole('alert')).toContainText(
      'has asked not to receive location requests from Kabari. We will not send them a message.',
    );
    await expect(message.getByRole('button', { name: 'Send' })).toBeDisabled();
    const refused = await ask();
    expect(refused.status()).toBe(409);
    expect((await refused.json()).message).toBe(
      'This number has opted out of location requests. Kabari will not message it.',
    );
    expect(await outboxMessages(baseURL!, number)).toHaveLength(2);
  });
});

test("a visitor's home search shows the number's facts, then hands over to sign-up", async ({ page }) => {
  await page.goto('/');
  await startPublicPageApp(page);
  const form = page.getByRole('form', { name: 'Ask someone where they are' });
  await form.getByRole('button', { name: 'Find' }).click();
  await expect(form.getByText('Please enter a number')).toBeVisible();
  await form.getByLabel('Mobile number').fill('+62 812 3456 7802');
  await form.getByRole('button', { name: 'Find' }).click();
  const facts = await dialogOpened(page.getByRole('dialog', { name: 'About this number' }));
  await expect(fact(facts, 'Country')).toContainText('Indonesia');
  await facts.getByRole('button', { name: 'Continue' }).click();
  await expect(facts).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Create your account' })).toBeVisible();
});
