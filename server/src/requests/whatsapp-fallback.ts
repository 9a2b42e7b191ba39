import type { ReceiptState } from '../db/column-values';
import type { DatabaseExecutor, DatabaseTransaction } from '../db/open-database';
import type { MessageOutbox } from '../messages/message-outbox';
import { NO_WHATSAPP_CODES } from '../messages/twilio-whatsapp';
import { accountDayKey, countDailySend, sendDay, SMS_BUDGET_KEY } from './daily-send-counts';
import { publishRequestChange } from './location-request-view';
import { isOptedOut } from './opt-outs';
import type { SendLimitsConfig } from './requests-config';
import { newRequestToken, requestTokenHash } from './request-tokens';
import { queueSmsBudgetAlert } from './sms-budget-alert';
import { messageLinks, renderMessage } from './templates';
import { lockWhatsAppRequestOfMessage, recordWhatsAppFallback } from './whatsapp-fallback-rows';

// A WhatsApp request to a number without WhatsApp goes once by SMS instead, within the same daily limits as any SMS.

/** What the fallback uses: the outbox, the opt-out key's secret, the limits, the site's address, the operator. */
export interface SmsFallbackServices {
  outbox: MessageOutbox;
  hmacSecret: Buffer;
  publicUrl: string;
  operatorEmail: string;
  sendLimits: SendLimitsConfig;
}

/** Whether a failed WhatsApp message's error code says the number has no WhatsApp. */
export function hasNoWhatsApp(state: ReceiptState, errorCode: string | null): boolean {
  return (state === 'failed' || state === 'undelivered') && errorCode !== null && NO_WHATSAPP_CODES.includes(errorCode);
}

class OverLimit extends Error {}

/**
 * Sends the request of a WhatsApp message the number could not take by SMS, once: only while the request still
 * waits for an answer, its number has not opted out, and the requester's daily SMS count and everyone's SMS budget
 * allow one more (each counts it, as any SMS). The SMS carries a new link (the WhatsApp one never arrived, and its
 * token is not kept) and becomes the request's message; what was done is recorded for the requester's history and
 * published to them. Call inside the transaction that recorded the failure; kick the outbox after it commits.
 * Resolves with what was done, or null when nothing was to be done.
 */
export async function sendSmsInsteadOfWhatsApp(
  tx: DatabaseExecutor,
  services: SmsFallbackServices,
  messageId: string,
): Promise<'sms' | 'limit' | 'opted-out' | null> {
  const request = await lockWhatsAppRequestOfMessage(tx, messageId);
  if (!request || !request.target) return null;
  // Answered, cancelled or expired since: nobody is waiting for the message any more.
  if (request.consent !== 'none' || request.expiresAt.getTime() <= Date.now()) return null;

  const done = async (fallback: 'sms' | 'limit' | 'opted-out', sms?: { messageId: string; tokenHash: string }) => {
    await recordWhatsAppFallback(tx, request.id, fallback, sms);
    await publishRequestChange(tx, request.userId, request.id);
    return fallback;
  };
  if (await isOptedOut(tx, services.hmacSecret, request.target)) return done('opted-out');

  const { sendLimits: limits } = services;
  const day = sendDay();
  try {
    // A savepoint: one count taken and the other refused leaves neither.
    await (tx as DatabaseTransaction).transaction(async (counts) => {
      const own = await countDailySend(counts, accountDayKey('sms', request.userId), limits.smsPerAccountPerDay, day);
      if (!own.counted) throw new OverLimit();
      const budget = await countDailySend(counts, SMS_BUDGET_KEY, limits.smsDailyBudget, day);
      if (!budget.counted) throw new OverLimit();
      if (budget.count === limits.smsDailyBudget) {
        await queueSmsBudgetAlert(counts, services.outbox, services.operatorEmail, day, limits.smsDailyBudget);
      }
    });
  } catch (error) {
    if (error instanceof OverLimit) return done('limit');
    throw error;
  }

  const token = newRequestToken();
  const message = renderMessage({
    channel: 'sms',
    locale: request.locale,
    requesterName: request.displayName,
    note: request.note ?? '',
    links: messageLinks(services.publicUrl, request.locale, token),
    expiresAt: request.expiresAt,
  });
  const smsId = await services.outbox.queueSms(tx, {
    // One SMS per request, however often the failure is reported.
    idempotencyKey: `location-request-sms-instead:${request.id}`,
    to: request.target,
    locale: request.locale,
    text: message.text,
  });
  if (!smsId) return null;
  return done('sms', { messageId: smsId, tokenHash: requestTokenHash(token) });
}
