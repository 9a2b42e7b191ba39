import { signUpSubscriber } from '../../support/sign-up';
import { buildTestApp } from '../../support/test-app';

describe('dev subscription tools', () => {
  it('run renewals at a given moment for one account, and exist only where /dev/outbox does', async () => {
    const on = await buildTestApp('pglite', { RENEWAL_INTERVAL_SECONDS: '0' });
    try {
      const { email } = await signUpSubscriber(on.app);
      const at = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
      const run = await on.app.inject({
        method: 'POST',
        url: '/dev/subscriptions/run-renewals',
        payload: { at, email },
      });
      expect(run.json().data).toMatchObject({ renewed: 1, failed: 0 });
      const bad = await on.app.inject({
        method: 'POST',
        url: '/dev/subscriptions/run-renewals',
        payload: { at: 'soon' },
      });
      expect(bad.statusCode).toBe(400);
      const unknown = await on.app.inject({
        method: 'POST',
        url: '/dev/subscriptions/expire',
        payload: { email: 'nobody@example.com' },
      });
      expect(unknown.statusCode).toBe(404);
    } finally {
      await on.close();
    }
    const off = await buildTestApp('pglite', { DEV_OUTBOX: 'false', RENEWAL_INTERVAL_SECONDS: '0' });
    try {
      const response = await off.app.inject({
        method: 'POST',
        url: '/dev/subscriptions/expire',
        payload: { email: 'a@example.com' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
