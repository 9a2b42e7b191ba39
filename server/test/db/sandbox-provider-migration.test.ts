import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { createSession } from '../../src/auth/sessions';
import { renewalKey } from '../../src/billing/renewals';
import { queryRows } from '../../src/db/open-database';
import { payments, registrations, subscriptions } from '../../src/db/schema/billing';
import { appAfterMigration } from '../support/database-before-migration';
import { describeEachDatabase } from '../support/databases';
import { tablesHolding } from '../support/stored-text';

const DAY = 24 * 60 * 60 * 1000;

describeEachDatabase('migration 0019: the sandbox processor stored as v5pay', (driver) => {
  const appAfter = appAfterMigration(driver, 19);

  it('renames the provider, its charge ids and saved methods, and the old rows still renew and refund', async () => {
    const [userId, registrationId, subscriptionId, firstDayId, owedId] = [
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
      randomUUID(),
    ];
    const validUntil = new Date(Date.now() - 60 * 1000);
    const periodStart = new Date(validUntil.getTime() - DAY);
    const app = await appAfter(async (run) => {
      await run(`insert into users (id, email, display_name, password_hash)
                 values ('${userId}', 'rina@example.com', 'Rina', 'not-a-real-hash')`);
      await run(`insert into registrations (id, email, display_name, locale, provider, state, user_id, subscription_id)
                 values ('${registrationId}', 'rina@example.com', 'Rina', 'en', 'v5pay', 'created', '${userId}',
                         '${subscriptionId}')`);
      // Renewed by the sandbox with the saved test card; its first day is over.
      await run(`insert into subscriptions (id, user_id, status, provider, provider_payment_method_ref, currency,
                                            first_day_amount, amount, period_days, current_period_start, valid_until)
                 values ('${subscriptionId}', '${userId}', 'trial', 'v5pay', 'v5pay:card:succeeds:visa:4242', 'USD',
                         99, 2999, 30, '${periodStart.toISOString()}', '${validUntil.toISOString()}')`);
      await run(`insert into payments (id, user_id, subscription_id, registration_id, kind, period_index,
                                       idempotency_key, provider, provider_ref, currency, amount, state, card_brand,
                                       card_last4, settled_at)
                 values ('${firstDayId}', '${userId}', '${subscriptionId}', '${registrationId}', 'first_day', 0,
                         'first_day:${registrationId}', 'v5pay', 'v5pay_ch_0123456789abcdef01234567', 'USD', 99,
                         'succeeded', 'visa', '4242', '${periodStart.toISOString()}')`);
      // A sign-up for a taken email, whose first day is owed back.
      await run(`insert into payments (id, kind, period_index, idempotency_key, provider, provider_ref, currency,
                                       amount, state, settled_at, refund_reason, refund_owed_at)
                 values ('${owedId}', 'first_day', 0, 'first_day:${randomUUID()}', 'v5pay',
                         'v5pay_ch_76543210fedcba9876543210', 'USD', 99, 'succeeded', now(), 'email_in_use', now())`);
    });

    const { db } = app;
    const [registration] = await db.select().from(registrations).where(eq(registrations.id, registrationId));
    expect(registration?.provider).toBe('sandbox');
    const [subscription] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
    expect(subscription).toMatchObject({
      provider: 'sandbox',
      providerPaymentMethodRef: 'sandbox:card:succeeds:visa:4242',
    });
    const [firstDay] = await db.select().from(payments).where(eq(payments.id, firstDayId));
    expect(firstDay).toMatchObject({ provider: 'sandbox', providerRef: 'sandbox_ch_0123456789abcdef01234567' });
    expect(await tablesHolding(db, 'v5pay')).toEqual([]);

    // The old name is no longer a provider.
    await expect(queryRows(db, sql`update payments set provider = 'v5pay' where id = ${firstDayId}`)).rejects.toThrow();

    // The subscriber sees the sandbox.
    const { token } = await createSession(db, userId, 'jest');
    const info = await app.inject({
      method: 'GET',
      url: '/api/v1/personnal/subscribe/info',
      headers: { authorization: token },
    });
    expect(info.json().data).toMatchObject({ provider: 'sandbox', sandbox: true });

    // The saved method renews with the sandbox.
    expect(await app.billing.runRenewals(new Date(), userId)).toMatchObject({ renewed: 1 });
    const [renewal] = await db
      .select()
      .from(payments)
      .where(eq(payments.idempotencyKey, renewalKey(subscriptionId, 1)));
    expect(renewal).toMatchObject({ provider: 'sandbox', state: 'succeeded', cardBrand: 'visa', cardLast4: '4242' });
    expect(renewal?.providerRef).toMatch(/^sandbox_ch_/);

    // The refund owed is made by the sandbox.
    const [owed] = await db.select().from(payments).where(eq(payments.id, owedId));
    expect(await app.billing.refundOwedNow(owed!.idempotencyKey)).toBe('refunded');
    const [refunded] = await db.select().from(payments).where(eq(payments.id, owedId));
    expect(refunded).toMatchObject({ provider: 'sandbox', state: 'refunded', refundOwedAt: null });
  });
});
