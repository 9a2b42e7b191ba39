import type { BrowserContext, Page } from '@playwright/test';
import { test as base, expect } from '../support/fixtures';
import { startKabari, type KabariServer } from '../support/kabari-server';
import { signUpSubscriber, type Subscriber } from '../support/subscriber';
import { toasts } from '../support/app-helpers';

// Location requests from the requester's side (issue 4), against a Kabari of its own with the local outbox open,
// where the messages sent can be read. One subscriber per journey (each has its own 3-hour limits).
const test = base.extend<object, { outboxKabari: KabariServer }>({
  outboxKabari: [
    async ({}, use) => {
      const server = await startKabari({ DEV_OUTBOX: 'true' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ outboxKabari }, use) => {
    await use(outboxKabari.url);
  },
});
test.describe.configure({ timeout: 120_000 });

async function signIn(context: BrowserContext, baseURL: string, displayName: string): Promise<Subscriber> {
  const subscriber = await signUpSubscriber(baseURL, { displayName });
  await context.addCookies([{ name: 'token', value: subscriber.token, url: baseURL }]);
  await context.addInitScript((user) => {
    localStorage.setItem('kabari-user', JSON.stringify({ state: { user }, version: 0 }));
  }, subscriber.user);
  return subscriber;
}

interface OutboxMessage {
  channel: string;
  recipient: string;
  subject: string | null;
  bodyText: string;
}

async function outbox(page: Page, recipient: string): Promise<OutboxMessage[]> {
  const response = await page.request.get(`/dev/outbox?recipient=${encodeURIComponent(recipient)}`, {
    headers: { accept: 'application/json' },
  });
  return ((await response.json()) as { data: OutboxMessage[] }).data;
}

function fact(dialog: ReturnType<Page['getByRole']>, name: string) {
  return dialog.getByTestId('number-facts').locator('div', { has: dialog.page().getByText(name, { exact: true }) });
}

test('a subscriber searches a number, sees its facts, sends an SMS with a note, then meets the 3-hour limit', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(context, baseURL!, 'Rina Number');
  const number = '+6281234567801';
  await page.goto('/dashboard');
  const search = page.getByRole('region', { name: 'New search' });
  await search.getByLabel('Mobile number').fill('+62 812-3456-7801');
  await search.getByRole('button', { name: 'Find' }).click();

  const facts = page.getByRole('dialog', { name: 'About this number' });
  await expect(facts.getByText('Numbering plan looked up')).toBeVisible();
  await expect(fact(facts, 'Country')).toContainText('Indonesia');
  await expect(fact(facts, 'Line type')).toContainText('Mobile');
  await expect(fact(facts, 'Region')).toContainText('Unknown');
  await expect(facts).not.toContainText(/tower/i);
  await facts.getByRole('button', { name: 'Choose a message' }).click();

  const message = page.getByRole('dialog', { name: 'Choose a message' });
  await expect(message.getByText(`To: ${number}`)).toBeVisible();
  await message.getByLabel('Your personal note').fill('Are you home yet? Love, Rina');
  const preview = message.getByTestId('message-preview');
  await expect(preview).toContainText('Are you home yet? Love, Rina');
  await expect(preview).toContainText('Rina Number');
  await message.getByRole('button', { name: 'Send' }).click();
  await expect(toasts(page).filter({ hasText: 'Send SMS template success' })).toBeVisible();
  await expect(message).toBeHidden();

  const row = page.getByTestId('request-row').filter({ hasText: number });
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('Not answered yet');
  const sent = await outbox(page, number);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ channel: 'sms', recipient: number });
  expect(sent[0]?.bodyText).toContain('Are you home yet? Love, Rina');
  expect(sent[0]?.bodyText).toContain('Rina Number');

  // The same number again: the limit is shown before trying, and the server refuses with the time.
  await search.getByRole('button', { name: 'Find' }).click();
  await facts.getByRole('button', { name: 'Choose a message' }).click();
  await expect(message.getByRole('alert')).toContainText(
    `One message per number or email every 3 hours. You can send the next one to ${number} on`,
  );
  await expect(message.getByRole('button', { name: 'Send' })).toBeDisabled();
  // The request carries the session's token cookie.
  const templates = await (await page.request.get('/api/v1/requests/templates?channel=sms&locale=en')).json();
  const refused = await page.request.post('/api/v1/requests/sms', {
    data: { number, templateId: templates.data.items[0].id, note: '', locale: 'en' },
  });
  expect(refused.status()).toBe(429);
  expect(Date.parse((await refused.json()).data.nextAllowedAt)).toBeGreaterThan(Date.now() + 2 * 3_600_000);
  expect(await outbox(page, number)).toHaveLength(1);
});

test('in Indonesian, a subscriber asks by email with a note', async ({ page, context, baseURL }) => {
  await signIn(context, baseURL!, 'Rina Surel');
  const email = `budi-${Date.now()}@example.com`;
  await page.goto('/id/dashboard');
  const search = page.getByRole('region', { name: 'Pencarian baru' });
  await search.getByRole('tab', { name: 'Lewat email' }).click();
  await search.getByRole('button', { name: 'Pilih pesan' }).click();
  await expect(search.getByText('Silakan masukkan alamat email')).toBeVisible();
  await search.getByLabel('Alamat email penerima').fill(email);
  await search.getByRole('button', { name: 'Pilih pesan' }).click();

  const message = page.getByRole('dialog', { name: 'Pilih pesan' });
  await message.getByLabel('Catatan pribadi Anda').fill('Sudah sampai rumah?');
  await expect(message.getByTestId('message-preview')).toContainText('Sudah sampai rumah?');
  await message.getByRole('button', { name: 'Kirim' }).click();
  await expect(toasts(page).filter({ hasText: 'Template email berhasil dikirim' })).toBeVisible();
  await expect(page.getByTestId('request-row').filter({ hasText: email })).toContainText('Menunggu');
  const sent = await outbox(page, email);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.bodyText).toContain('Sudah sampai rumah?');
  expect(sent[0]?.bodyText).toContain('Rina Surel');
});

test('a subscriber generates a link, copies it, and is told when the next one is allowed', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await signIn(context, baseURL!, 'Rina Link');
  await page.goto('/dashboard');
  const search = page.getByRole('region', { name: 'New search' });
  await search.getByRole('tab', { name: 'By link' }).click();
  await search.getByLabel('Link title').fill('Mum, Sunday');
  await search.getByRole('button', { name: 'Generate link' }).click();
  const url = search.getByLabel('Your link: Mum, Sunday');
  await expect(url).toHaveValue(/^http.+/);
  await search.getByRole('button', { name: 'Copy' }).click();
  await expect(toasts(page).filter({ hasText: 'Short link copy success' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await url.inputValue());
  await expect(page.getByTestId('request-row').filter({ hasText: 'Mum, Sunday' })).toContainText('Pending');

  await search.getByRole('button', { name: 'Generate a new link' }).click();
  await expect(search.getByRole('alert')).toContainText('One new link every 3 hours. You can create the next one on');
  await expect(search.getByRole('button', { name: 'Generate link' })).toBeDisabled();
});

test("a visitor's home search shows the number's facts, then hands over to sign-up", async ({ page }) => {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Ask someone where they are' });
  await form.getByRole('button', { name: 'Find' }).click();
  await expect(form.getByText('Please enter a number')).toBeVisible();
  await form.getByLabel('Mobile number').fill('+62 812 3456 7802');
  await form.getByRole('button', { name: 'Find' }).click();
  const facts = page.getByRole('dialog', { name: 'About this number' });
  await expect(fact(facts, 'Country')).toContainText('Indonesia');
  await facts.getByRole('button', { name: 'Continue' }).click();
  await expect(facts).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Create your account' })).toBeVisible();
});
