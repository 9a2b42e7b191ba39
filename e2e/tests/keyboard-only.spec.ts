import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures';

// The whole loop with the keyboard alone, as someone who cannot use a pointer goes through it: search a number,
// create an account, pay, make a trackable link; the relative consents; the map opens. Every control is reached
// with Tab (or the arrow keys inside a tab list) and used with Enter, Space or typing: nothing is clicked, filled or
// focused by the test.

// Monas, Central Jakarta.
const RECIPIENT_POSITION = { latitude: -6.1754, longitude: 106.8272, accuracy: 15 };

/** True when `target` (or something inside it) has the keyboard focus. */
async function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement));
}

/** Presses Tab until `target` has the focus; fails when it is not in the tab order within `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses <= max; presses += 1) {
    if (await hasFocus(target)) return;
    await page.keyboard.press('Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`Not reached with ${max} presses of Tab: ${target}. The focus is on ${focused}`);
}

/** Tab to a field, then type into it. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

test('the whole loop with the keyboard only: search, account, payment, link, consent, map', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  // The first key starts the home page's app, like any first use.
  await page.keyboard.press('Tab');
  // The search works before the app has started too: the page's first script turns Find on, and a search pressed
  // before the app runs is run by it once it does.
  await expect(page.getByRole('button', { name: 'Find' })).toBeEnabled();

  // Search: the country by typing its name in the list, then the number, then Enter.
  const country = page.getByLabel('Country code');
  await tabTo(page, country);
  await page.keyboard.type('Indonesia');
  await expect(country).toHaveValue('ID');
  await typeInto(page, page.getByLabel('Mobile number'), '812 3456 7890');
  await page.keyboard.press('Enter');
  const continueButton = page.getByRole('dialog').getByRole('button', { name: 'Continue' });
  await tabTo(page, continueButton);
  await page.keyboard.press('Enter');

  // The account: the dialog opens on its first field.
  const signUp = page.getByRole('dialog', { name: 'Create your account' });
  const email = `e2e-keyboard-${Date.now()}@example.com`;
  await expect(signUp.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(email);
  await typeInto(page, signUp.getByLabel('Your name'), 'Rina');
  for (const name of [/18 or older/, /Terms of Use/]) {
    const box = signUp.getByRole('checkbox', { name });
    await tabTo(page, box);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
  await tabTo(page, signUp.getByRole('button', { name: 'Continue to payment' }));
  await page.keyboard.press('Enter');

  // The payment, with the sandbox card.
  await expect(signUp.getByRole('heading', { name: /Sandbox card form/ })).toBeVisible();
  await typeInto(page, signUp.getByLabel('First name on card'), 'Rina');
  await typeInto(page, signUp.getByLabel('Last name on card'), 'Putri');
  await tabTo(page, signUp.getByLabel('Card number'));
  await page.keyboard.type('4242424242424242');
  await tabTo(page, signUp.getByLabel('Expiry (MM/YY)'));
  await page.keyboard.type(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
  await typeInto(page, signUp.getByLabel('CVV'), '123');
  const terms = signUp.getByRole('checkbox', { name: /subscription terms/ });
  await tabTo(page, terms);
  await page.keyboard.press('Space');
  await expect(terms).toBeChecked();
  await tabTo(page, signUp.getByRole('button', { name: /^Pay / }));
  await page.keyboard.press('Enter');

  const welcome = page.getByRole('dialog', { name: 'Welcome to Kabari' });
  await expect(welcome.getByText('Welcome, Rina! Your subscription is active.')).toBeVisible();
  await tabTo(page, welcome.getByRole('button', { name: 'Go to my dashboard' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/$/);

  // A trackable link: the tab list is one stop, its tabs are chosen with the arrow keys.
  const search = page.getByRole('region', { name: 'New search' });
  await tabTo(page, search.getByRole('tab', { selected: true }));
  const byLink = search.getByRole('tab', { name: 'By link' });
  for (let presses = 0; presses < 3 && !(await hasFocus(byLink)); presses += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(byLink).toHaveAttribute('aria-selected', 'true');
  await typeInto(page, search.getByLabel('Link title'), 'Mum');
  await tabTo(page, search.getByRole('button', { name: 'Generate link' }));
  await page.keyboard.press('Enter');
  const url = await search.getByLabel('Your link: Mum').inputValue();
  expect(url).toMatch(/\/enter-link\?token=/);

  // The relative consents, with the keyboard too.
  const recipientContext = await browser.newContext({ geolocation: RECIPIENT_POSITION, permissions: ['geolocation'] });
  try {
    const recipient = await recipientContext.newPage();
    const link = new URL(url);
    await recipient.goto(new URL(`${link.pathname}${link.search}`, baseURL).toString());
    await expect(recipient.locator('article[data-remote="share"][data-hydrated]')).toBeVisible();
    await tabTo(recipient, recipient.getByRole('button', { name: 'Share my location' }));
    await recipient.keyboard.press('Enter');
    await expect(recipient).toHaveURL(/\/share/);

    // The requester's map, opened from the history's row.
    const row = page.getByTestId('request-row').filter({ hasText: 'Mum' });
    await expect(row).toContainText('GPS Tracked');
    await tabTo(page, row.getByRole('button', { name: 'Show on map' }));
    await page.keyboard.press('Enter');
    const map = page.getByTestId('live-map');
    await expect(map.getByRole('heading', { name: 'Location map: Mum' })).toBeVisible();
    await expect(map.locator('.live-map__marker')).toBeVisible();
  } finally {
    await recipientContext.close();
  }
});
