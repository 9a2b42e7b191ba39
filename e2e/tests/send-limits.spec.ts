import type { BrowserContext } from '@playwright/test';
import { chooseMessageInFacts } from '../support/app-helpers';
import { expect } from '../support/fixtures';
import { withOwnKabari } from '../support/own-server';
import { signUpSubscriber } from '../support/subscriber';

// The limits that keep Kabari from spending the operator's money, seen from the dashboard: a Kabari of its own
// where an account may send one SMS a day, so the second one meets the daily limit.
const test = withOwnKabari({ SMS_PER_ACCOUNT_PER_DAY: '1' });
test.describe.configure({ timeout: 120_000 });

async function signIn(context: BrowserContext, baseURL: string, displayName: string): Promise<void> {
  const subscriber = await signUpSubscriber(baseURL, { displayName });
  await context.addCookies([{ name: 'token', value: subscriber.token, url: baseURL }]);
  await context.addInitScript((user) => {
    localStorage.setItem('kabari-user', JSON.stringify({ state: { user }, version: 0 }));
  }, subscriber.user);
}

const texts = {
  en: {
    path: '/dashboard',
    newSearch: 'New search',
    mobileNumber: 'Mobile number',
    find: 'Find',
    aboutNumber: 'About this number',
    chooseMessage: 'Choose a message',
    send: 'Send',
    cancel: 'Cancel',
    notSentThere: 'Kabari sends SMS only to numbers in Indonesia. Ask this person by email or with a link instead.',
    dailyLimit:
      /^Today's SMS requests are used up: one account can send 1 a day\. The next one is possible in .+; requests by email or link still work\.$/,
  },
  id: {
    path: '/id/dashboard',
    newSearch: 'Pencarian baru',
    mobileNumber: 'Nomor ponsel',
    find: 'Cari',
    aboutNumber: 'Tentang nomor ini',
    chooseMessage: 'Pilih pesan',
    send: 'Kirim',
    cancel: 'Batal',
    notSentThere:
      'Kabari hanya mengirim SMS ke nomor di Indonesia. Mintalah lokasinya lewat email atau tautan sebagai gantinya.',
    dailyLimit:
      /^Jatah permintaan lewat SMS hari ini sudah habis: satu akun bisa mengirim 1 per hari\. Permintaan berikutnya bisa dikirim dalam .+; permintaan lewat email atau tautan tetap bisa\.$/,
  },
} as const;

const journeys = [
  { locale: 'en', first: '+6281234567911', second: '+6281234567912', typed: '+62 812-3456-7912' },
  { locale: 'id', first: '+6281234567921', second: '+6281234567922', typed: '+62 812-3456-7922' },
] as const;

for (const { locale, first, second, typed } of journeys) {
  const say = texts[locale];

  // One subscriber, one app start: looking a number up sends nothing, so the daily SMS is still unused after it.
  test(`[${locale}] the search says up front that Kabari sends no SMS to a Nigerian number; the second SMS of the day is refused, with the reason`, async ({
    page,
    context,
    baseURL,
  }) => {
    await signIn(context, baseURL!, 'Sari Harian');
    await page.goto(say.path);
    const search = page.getByRole('region', { name: say.newSearch });
    const facts = page.getByRole('dialog', { name: say.aboutNumber });
    const message = page.getByRole('dialog', { name: say.chooseMessage });

    await test.step('no SMS to a Nigerian number, said up front', async () => {
      await search.getByLabel(say.mobileNumber).fill('+234 803 123 4567');
      await search.getByRole('button', { name: say.find }).click();
      await expect(facts.getByTestId('sms-refused')).toHaveText(say.notSentThere);
      await expect(facts.getByRole('button', { name: say.chooseMessage })).toBeDisabled();
      await facts.getByRole('button', { name: say.cancel }).click();
      await expect(facts).toBeHidden();
    });

    await test.step('the second SMS of the day is refused in the dashboard, with the reason', async () => {
      await search.getByLabel(say.mobileNumber).fill(typed);
      await search.getByRole('button', { name: say.find }).click();
      await chooseMessageInFacts(facts, message, say.chooseMessage);
      await expect(message.getByTestId('message-preview')).toBeVisible();
      await expect(message.getByRole('button', { name: say.send })).toBeEnabled();

      // Meanwhile the same account sends its one SMS of the day from elsewhere (another tab, another device).
      const templates = await (
        await page.request.get(`/api/v1/requests/templates?channel=sms&locale=${locale}`)
      ).json();
      const elsewhere = await page.request.post('/api/v1/requests/sms', {
        data: { number: first, templateId: templates.data.items[0].id, note: '', locale },
      });
      expect(elsewhere.status()).toBe(200);

      // The server refuses this one: the dashboard says why, in the page's language, and Send stays off.
      await message.getByRole('button', { name: say.send }).click();
      await expect(message.getByTestId('send-refused')).toHaveText(say.dailyLimit);
      await expect(message.getByRole('button', { name: say.send })).toBeDisabled();

      // Opened again, the step says it before the user tries.
      await page.reload();
      await search.getByLabel(say.mobileNumber).fill(typed);
      await search.getByRole('button', { name: say.find }).click();
      await chooseMessageInFacts(facts, message, say.chooseMessage);
      await expect(message.getByTestId('send-refused')).toHaveText(say.dailyLimit);
      await expect(message.getByRole('button', { name: say.send })).toBeDisabled();
      const refused = await page.request.post('/api/v1/requests/sms', {
        data: { number: second, templateId: templates.data.items[0].id, note: '', locale },
        headers: { 'accept-language': locale },
      });
      expect(refused.status()).toBe(429);
      expect((await refused.json()).data.rule).toBe('account-day');
    });
  });
}
