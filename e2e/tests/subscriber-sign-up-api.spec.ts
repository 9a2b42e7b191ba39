import { test, expect } from '../support/fixtures';
import { signInAsSubscriber } from '../support/app-helpers';
import { signUpSubscriber } from '../support/subscriber';

// The support every other spec builds on: a subscriber signed up through the real API (sandbox card 4242…),
// with a real session, lands on the dashboard and stays there (subscribe/info answers a live trial).
test('a subscriber signed up through the API is signed in on the dashboard', async ({ page, context, baseURL }) => {
  const subscriber = await signUpSubscriber(baseURL!, { locale: 'id' });
  expect(subscriber.user.userCacheInfo.email).toBe(subscriber.email);
  await signInAsSubscriber(context, baseURL!, subscriber);
  const info = page.waitForResponse((response) => response.url().endsWith('/api/v1/personnal/subscribe/info'));
  await page.goto('/id/dashboard/');
  const body = await (await info).json();
  expect(body.data).toMatchObject({ status: 'trial', expiredStatus: 0, currencyCode: 'IDR', sandbox: true });
  await expect(page).toHaveURL(/\/id\/dashboard\/$/);
});
