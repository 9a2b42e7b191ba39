import { formatMoney, toMajor } from '@kabari/rules/money';
import type { Database } from '../db/open-database';
import type { PaymentProvider } from '../db/column-values';
import { longDate, messagesIn, type Locale } from '../lib/messages';
import type { MessageOutbox } from '../messages/message-outbox';
import type { PushNotification } from '../messages/web-push-sender';
import { pushSubscriptionsOf } from '../push/push-subscriptions';
import { addDays } from './clock';
import { payReminderEmail } from './emails';
import { pendingRenewalPayment } from './payment-rows';
import { lockNextPayReminderDue, markPayReminderSent } from './renewal-rows';
import { PAY_AHEAD_DAYS } from './subscriptions';

// A subscription paid with QRIS, an e-wallet or a transfer is never charged by itself: it ends on time unless its
// owner pays. Its owner is reminded to pay when paying ahead opens (PAY_AHEAD_DAYS before the end) and once more
// the day before, by email and on each browser where they turned notifications on.

/** The last reminder goes out this many days before the period ends. */
const LAST_REMINDER_DAYS = 1;

const BATCH_LIMIT = 200;

/** The My subscription page, opening its payment choices at once: where a reminder to pay leads. */
function payNextPeriodUrl(publicUrl: string, locale: Locale): string {
  return `${publicUrl}${locale === 'id' ? '/id' : ''}/dashboard/modules/MySubscription?renew=1`;
}

const pushText = messagesIn('push');

function payReminderPush(
  locale: Locale,
  facts: { amount: number; currency: string; endsAt: Date; payUrl: string },
): PushNotification {
  const date = longDate(facts.endsAt, locale);
  const amount = formatMoney(toMajor(facts.amount, facts.currency), facts.currency, locale);
  return {
    title: pushText(locale, 'payReminderTitle', { date }),
    body: pushText(locale, 'payReminderBody', { amount }),
    url: facts.payUrl,
    // The last reminder replaces the first on the device.
    tag: 'pay-reminder',
  };
}

export interface PayReminderDeps {
  db: Database;
  outbox: MessageOutbox;
  /** The configured public address (PUBLIC_URL), for the link to pay. */
  publicUrl: string;
}

/**
 * Sends the reminders to pay that are due at `at`: 7 days before the period ends, then 1 day before; each once per
 * period (the subscription row says which went, under its row lock, so instances and restarts never send one twice;
 * the outbox key is a second guard). One found late sends only the reminder due now: past the 1-day mark, the 7-day
 * one is not sent. None for a period paid ahead, a cancelled or ended subscription, nor while a payment for the next
 * period waits (the reminder follows if that payment fails). `notRenewing`: providers not reminded (the sandbox's
 * once it is off, whose subscriptions end with their own notice). Answers how many were sent.
 */
export async function sendPayReminders(
  deps: PayReminderDeps,
  at: Date,
  userId?: string,
  notRenewing: readonly PaymentProvider[] = [],
): Promise<number> {
  const reminders = {
    firstAt: addDays(at, PAY_AHEAD_DAYS),
    lastAt: addDays(at, LAST_REMINDER_DAYS),
    lastDays: LAST_REMINDER_DAYS,
  };
  const skip = new Set<string>();
  let sent = 0;
  for (let index = 0; index < BATCH_LIMIT; index += 1) {
    const done = await deps.db.transaction(async (tx) => {
      const row = await lockNextPayReminderDue(tx, at, reminders, skip, userId, notRenewing);
      if (!row) return true;
      const { subscription, user } = row;
      skip.add(subscription.id);
      if (await pendingRenewalPayment(tx, subscription.id, subscription.periodIndex + 1)) return false;
      const days =
        subscription.validUntil.getTime() <= reminders.lastAt.getTime() ? LAST_REMINDER_DAYS : PAY_AHEAD_DAYS;
      const { locale } = user;
      const key = `pay-reminder:${subscription.id}:${subscription.periodIndex}:${days}`;
      const facts = {
        amount: subscription.amount,
        currency: subscription.currency,
        endsAt: subscription.validUntil,
        payUrl: payNextPeriodUrl(deps.publicUrl, locale),
      };
      await deps.outbox.queue(tx, {
        idempotencyKey: key,
        to: user.email,
        locale,
        // "Last reminder" only after a first one: found late, or in the one-day trial, the only one says it plainly.
        ...payReminderEmail(locale, {
          ...facts,
          displayName: user.displayName,
          last: subscription.payReminderPeriod === subscription.periodIndex,
        }),
      });
      const notification = payReminderPush(locale, facts);
      for (const device of await pushSubscriptionsOf(tx, user.id)) {
        await deps.outbox.queuePush(tx, {
          idempotencyKey: `${key}:push:${device.id}`,
          subscriptionId: device.id,
          locale,
          notification,
        });
      }
      await markPayReminderSent(tx, subscription, days);
      sent += 1;
      return false;
    });
    if (done) break;
  }
  if (sent > 0) deps.outbox.kick();
  return sent;
}
