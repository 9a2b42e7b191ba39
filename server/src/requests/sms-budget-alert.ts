import type { DatabaseExecutor } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import type { RenderedEmail } from '../messages/templates';
import { operatorEmail } from '../messages/operator-email';

/** The operator's email when the day's SMS budget is used up, in English (the operator's language). */
export function smsBudgetAlertEmail(day: string, budget: number): RenderedEmail {
  return operatorEmail(`Kabari: the SMS budget of ${day} is used up (${budget} SMS)`, [
    `Kabari has sent ${budget} SMS on ${day} (UTC), the daily budget set by SMS_DAILY_BUDGET.`,
    '',
    'Until midnight UTC every SMS request is refused, and the requester is told that SMS requests are possible ' +
      'again tomorrow. Requests by email and by link still work.',
    '',
    'If this many SMS is expected, raise SMS_DAILY_BUDGET and restart the server. If it is not, look for misuse: ' +
      'the location requests of the day show which accounts sent them.',
    '',
    'This email is sent once a day at most.',
  ]);
}

/**
 * Queues the alert for `day`: its idempotency key is the day, so however many sends meet the spent budget, the
 * operator gets one email a day. Resolves with whether this call queued it.
 */
export async function queueSmsBudgetAlert(
  db: DatabaseExecutor,
  outbox: MessageOutbox,
  operatorEmail: string,
  day: string,
  budget: number,
): Promise<boolean> {
  const id = await outbox.queue(db, {
    idempotencyKey: `sms-budget-used-up:${day}`,
    to: operatorEmail,
    locale: 'en',
    ...smsBudgetAlertEmail(day, budget),
  });
  return id !== null;
}
