import { signUpSubscriber } from '../../support/sign-up';
import { buildTestApp } from '../../support/test-app';

describe('dev subscription tools', () => {
  it('run renewals at a given moment for one account, and exist only when DEV_BILLING_TOOLS=true', async () => {
    const on = await buildTestApp('pglite', { RENEWAL_INTERVAL_SECONDS: '0', DEV_BILLING_TOOLS: 'true' });
    try {
      const token = `?token=${on.config.devTools.token}`;
      const { email } = await signUpSubscriber(on.app);
      const at = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
      const run = await on.app.inject({
        method: 'POST',
        url: `/dev/subscriptions/run-renewals${token}`,
        payload: { at, email },
      });
      expect(run.json().data).toMatchObject({ renewed: 1, failed: 0 });
      const bad = await on.app.inject({
        method: 'POST',
        url: `/dev/subscriptions/run-renewals${token}`,
        payload: { at: 'soon' },
      });
      expect(bad.statusCode).toBe(400);
      const unknown = await on.app.inject({
        method: 'POST',
        url: `/dev/subscriptions/expire${token}`,
        payload: { email: 'nobody@example.com' },
      });
      expect(unknown.statusCode).toBe(404);
    } finally {
      await on.close();
    }
    // Not asked for: absent, though the outbox is on and the token is right.
    const off = await buildTestApp('pglite', { RENEWAL_INTERVAL_SECONDS: '0' });
    try {
      expect(off.config.devTools.outbox).toBe(true);
      const response = await off.app.inject({
        method: 'POST',
        url: `/dev/subscriptions/expire?token=${off.config.devTools.token}`,
        payload: { email: 'a@example.com' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  }, 120_000);
});
