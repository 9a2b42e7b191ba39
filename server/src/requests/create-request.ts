import { randomUUID } from 'node:crypto';
import type { AuthServices } from '../auth/auth-services';
import type { Database } from '../db/open-database';
import type { Locale } from '../lib/messages';
import type { MessageOutbox } from '../messages/message-outbox';
import { findOwnedRequest, publishRequestView, type LinkUrlSource } from './location-request-view';
import type { LocationRequestView } from './view-types';
import { isOptedOut, optOutKey } from './opt-outs';
import { accountDayKey, countDailySend, nextSendDay, sendDay, SMS_BUDGET_KEY } from './daily-send-counts';
import type { SendLimitsConfig } from './requests-config';
import { insertRequest } from './request-rows';
import { claimSendSlot, linkLimitKey, targetLimitKey } from './send-limits';
import { queueSmsBudgetAlert } from './sms-budget-alert';
import { linkTokenKey, newRequestToken, requestTokenHash, sealLinkToken } from './request-tokens';
import { messageLinks, renderMessage, whatsAppVariables, type MessageChannel, type TemplateId } from './templates';
import { attachVoiceNote } from '../voice/voice-notes';

/**
 * Which limit refused a send: the target's 3-hour slot, the requester's 3-hour link slot, the account's daily count
 * of the channel, or everyone's daily SMS budget.
 */
export type LimitRule = 'target' | 'link' | 'account-day' | 'sms-budget';

export type CreateOutcome =
  | { kind: 'created'; request: LocationRequestView }
  | { kind: 'limited'; rule: LimitRule; nextAllowedAt: Date }
  | { kind: 'opted-out' };

/** Ends the transaction with a refusal: everything it wrote (a target's slot, a count) is rolled back. */
class Refusal extends Error {
  constructor(readonly outcome: CreateOutcome) {
    super('refused');
  }
}

interface Requester {
  userId: string;
  displayName: string;
}

/** What sending uses of the server: the database, the outbox, the secrets. */
export interface RequestSender {
  db: Database;
  outbox: MessageOutbox;
  auth: Pick<AuthServices, 'secrets'>;
}

interface Common {
  requester: Requester;
  locale: Locale;
  baseUrl: string;
  expiryDays: number;
  /** A voice note the requester recorded, sent with the request, and its text. */
  voiceNote?: { id: string; text?: string | undefined } | undefined;
}

function expiresAt(days: number): Date {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000);
}

/**
 * A request by SMS or email: the opt-out check, the per-target send slot, the account's daily count (and for an
 * SMS the day's budget), the request, its message in the outbox and the live event, all in one transaction, so a
 * refusal changes nothing and a success is whole. The limits are taken in the same order by every send (target,
 * account, budget), so concurrent sends wait for each other instead of deadlocking. The SMS that uses up the
 * budget queues the operator's alert with it; a send refused by the spent budget queues it too (once a day). A
 * WhatsApp message to a number costs like an SMS and is counted as one.
 */
export async function createMessageRequest(
  app: RequestSender,
  input: Common & {
    channel: MessageChannel;
    /** A request to a number by WhatsApp: counted as an SMS, and sent by SMS instead if the number has none. */
    byWhatsApp?: boolean;
    target: string;
    templateId: TemplateId;
    note: string;
    limits: SendLimitsConfig;
    operatorEmail: string;
  },
): Promise<CreateOutcome> {
  const { limits } = input;
  const { hmacSecret } = app.auth.secrets;
  const day = sendDay();
  const perAccount = input.channel === 'sms' ? limits.smsPerAccountPerDay : limits.emailPerAccountPerDay;
  const alert = (db: Parameters<typeof queueSmsBudgetAlert>[0]) =>
    queueSmsBudgetAlert(db, app.outbox, input.operatorEmail, day, limits.smsDailyBudget);
  const outcome = await app.db
    .transaction(async (tx): Promise<CreateOutcome> => {
      if (await isOptedOut(tx, hmacSecret, input.target)) return { kind: 'opted-out' };
      const claim = await claimSendSlot(tx, targetLimitKey(hmacSecret, input.target));
      if (!claim.allowed) return { kind: 'limited', rule: 'target', nextAllowedAt: claim.nextAllowedAt };
      const own = await countDailySend(tx, accountDayKey(input.channel, input.requester.userId), perAccount, day);
      if (!own.counted) throw new Refusal({ kind: 'limited', rule: 'account-day', nextAllowedAt: nextSendDay() });
      if (input.channel === 'sms') {
        const budget = await countDailySend(tx, SMS_BUDGET_KEY, limits.smsDailyBudget, day);
        if (!budget.counted) throw new Refusal({ kind: 'limited', rule: 'sms-budget', nextAllowedAt: nextSendDay() });
        if (budget.count === limits.smsDailyBudget) await alert(tx);
      }

      const requestId = randomUUID();
      const token = newRequestToken();
      const expires = expiresAt(input.expiryDays);
      const links = messageLinks(input.baseUrl, input.locale, token);
      const message = renderMessage({
        channel: input.channel,
        locale: input.locale,
        requesterName: input.requester.displayName,
        note: input.note,
        links,
        expiresAt: expires,
      });
      const idempotencyKey = `location-request:${requestId}`;
      const messageId = input.byWhatsApp
        ? await app.outbox.queueWhatsApp(tx, {
            idempotencyKey,
            to: input.target,
            locale: input.locale,
            content: { variables: whatsAppVariables(input.locale, input.requester.displayName, links) },
          })
        : input.channel === 'sms'
          ? await app.outbox.queueSms(tx, {
              idempotencyKey,
              to: input.target,
              locale: input.locale,
              text: message.text,
            })
          : await app.outbox.queue(tx, {
              idempotencyKey,
              to: input.target,
              locale: input.locale,
              subject: message.subject ?? '',
              text: message.text,
              html: message.html ?? '',
            });
      if (!messageId) throw new Error('the request message was not queued');
      await insertRequest(tx, {
        id: requestId,
        userId: input.requester.userId,
        channel: input.channel,
        target: input.target,
        targetHash: optOutKey(hmacSecret, input.target),
        // Only the hash: the token itself goes out in the message and is kept nowhere else.
        tokenHash: requestTokenHash(token),
        locale: input.locale,
        templateId: input.templateId,
        note: input.note.trim() || null,
        messageId,
        sentByWhatsapp: input.byWhatsApp === true,
        expiresAt: expires,
      });
      if (input.voiceNote) await attachVoiceNote(tx, input.requester.userId, requestId, input.voiceNote);
      return { kind: 'created', request: await publishCreated(tx, input.requester.userId, requestId, null) };
    })
    .catch((error: unknown) => {
      if (error instanceof Refusal) return error.outcome;
      throw error;
    });
  if (outcome.kind === 'limited' && outcome.rule === 'sms-budget') await alert(app.db);
  if (outcome.kind === 'created' || (outcome.kind === 'limited' && outcome.rule === 'sms-budget')) app.outbox.kick();
  return outcome;
}

/** A trackable link the requester shares themselves: one new link per requester every 3 hours. */
export async function createLinkRequest(app: RequestSender, input: Common & { title: string }): Promise<CreateOutcome> {
  return app.db.transaction(async (tx): Promise<CreateOutcome> => {
    const claim = await claimSendSlot(tx, linkLimitKey(input.requester.userId));
    if (!claim.allowed) return { kind: 'limited', rule: 'link', nextAllowedAt: claim.nextAllowedAt };
    const requestId = randomUUID();
    const token = newRequestToken();
    const tokenKey = linkTokenKey(app.auth.secrets.hmacSecret);
    await insertRequest(tx, {
      id: requestId,
      userId: input.requester.userId,
      channel: 'link',
      title: input.title,
      tokenHash: requestTokenHash(token),
      // The requester copies the link again from their list: sealed, opened only for them.
      tokenCipher: sealLinkToken(tokenKey, requestId, token),
      locale: input.locale,
      expiresAt: expiresAt(input.expiryDays),
    });
    if (input.voiceNote) await attachVoiceNote(tx, input.requester.userId, requestId, input.voiceNote);
    const links = { baseUrl: input.baseUrl, tokenKey };
    return { kind: 'created', request: await publishCreated(tx, input.requester.userId, requestId, links) };
  });
}

/** The new request's view for the answer (with a link's URL), published live without it. */
async function publishCreated(
  tx: Parameters<typeof findOwnedRequest>[0],
  userId: string,
  requestId: string,
  links: LinkUrlSource | null,
): Promise<LocationRequestView> {
  const view = await findOwnedRequest(tx, userId, requestId, links);
  if (!view) throw new Error('the new request was not found');
  await publishRequestView(tx, userId, view);
  return view;
}
