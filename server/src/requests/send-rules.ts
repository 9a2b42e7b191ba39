import { unsendableNameProblem } from '../auth/display-name';
import { countAttempt, type ThrottleRule } from '../auth/throttle';
import type { User } from '../auth/users';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { normalEmail } from '../lib/email-address';
import { sayCommon, type Locale, type LocalizedText } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import { cancelOwnedRequest, type CancelOutcome } from './cancel-request';
import {
  createLinkRequest,
  createMessageRequest,
  type CreateOutcome,
  type LimitRule,
  type RequestSender,
} from './create-request';
import { accountDayKey, dailyLimitReached, nextSendDay, SMS_BUDGET_KEY } from './daily-send-counts';
import type { LinkUrlSource } from './location-request-view';
import { canReceiveSms, numberFacts, parseNumber } from './number-facts';
import { isOptedOut } from './opt-outs';
import { hoursText, sayRequests, sayRequestsIn } from './request-messages';
import type { SendLimitsConfig } from './requests-config';
import { linkLimitKey, nextAllowedAt, targetLimitKey } from './send-limits';
import { smsCountryRefusal } from './sms-countries';
import { requireSubscriber } from './subscriber-access';
import {
  messageLinks,
  noteProblem,
  PREVIEW_TOKEN,
  renderMessage,
  type MessageChannel,
  type TemplateId,
} from './templates';

/** The settings a send reads: where links point, how long they last, the send limits, who hears of the budget. */
export interface SendSettings {
  publicUrl: string;
  operatorEmail: string;
  requests: { linkExpiryDays: number; sendLimits: SendLimitsConfig };
}

/** What a preview takes: the channel, the template, the requester's note and the message's language. */
export interface PreviewInput {
  channel: MessageChannel;
  templateId: TemplateId;
  note: string;
  locale: Locale;
}

/** What a limit check asks about: the next link, or a number (with its country) or an address. */
export interface LimitQuery {
  channel: MessageChannel | 'link';
  number?: string | undefined;
  country?: string | undefined;
  email?: string | undefined;
}

interface MessageFields {
  templateId: TemplateId;
  note: string;
  locale: Locale;
  voiceNote?: { id: string; text?: string | undefined } | undefined;
}

/** A request to send: by SMS to a number (its country helps read it), or by email to an address already checked. */
export type MessageToSend =
  | ({ channel: 'sms'; byWhatsApp?: boolean; number: string; country?: string | undefined } & MessageFields)
  | ({ channel: 'email'; email: string } & MessageFields);

// The subscriber's rules for asking: who may send, to which number or address, how often, with which note; what a
// send or a limit check answers. The sending itself (opt-out, slots, counts, the message) is requests/create-request.

/**
 * Asking the limit of a number or address says whether it opted out and whether someone messaged it lately:
 * a subscriber opening the send step asks once per target, so this per-user budget (in the database, so it holds
 * across instances) is generous for that and stops walking through numbers.
 */
export const TARGET_LIMIT_CHECKS: ThrottleRule = { limit: 60, windowSeconds: 60 * 60 };

/** The owner's request cancelled (or unchanged, when it had ended); anyone else's: 404. */
export async function cancelRequest(
  db: Database,
  links: LinkUrlSource,
  userId: string,
  requestId: string,
): Promise<CancelOutcome> {
  const outcome = await cancelOwnedRequest(db, userId, requestId, links);
  if (!outcome) throw new HttpError(404, sayCommon('requestNotFound'));
  return outcome;
}

/** What a limit says when it refuses a send, in both languages. */
export function limitText(
  rule: LimitRule,
  what: 'number' | 'email' | 'link',
  seconds: number,
  limits: SendLimitsConfig | undefined,
): LocalizedText {
  const until = (locale: Locale) => hoursText(seconds, locale);
  switch (rule) {
    case 'link':
      return sayRequests('linkLimited', { wait: seconds });
    case 'target':
      return sayRequests(what === 'number' ? 'numberLimited' : 'emailLimited', { wait: seconds });
    case 'account-day': {
      const limit = what === 'number' ? limits?.smsPerAccountPerDay : limits?.emailPerAccountPerDay;
      return sayRequestsIn(what === 'number' ? 'smsPerDay' : 'emailPerDay', (locale) => ({
        limit: limit ?? 0,
        until: until(locale),
      }));
    }
    case 'sms-budget':
      return sayRequestsIn('smsBudget', (locale) => ({ until: until(locale) }));
  }
}

/** A stored display name that cannot go into a message (one saved before the name rule): 400, saying how to fix. */
function checkRequesterName(displayName: string): void {
  const problem = unsendableNameProblem(displayName);
  if (problem) throw new HttpError(400, problem);
}

/** A number an SMS can reach (E.164, and its country), or a 400 with the form's own message. */
async function smsTarget(
  number: string | undefined,
  country: string | undefined,
): Promise<{ e164: string; countryCode: string | null }> {
  const parsed = parseNumber(number, country);
  if (parsed.kind === 'empty') throw new HttpError(400, sayCommon('enterNumber'));
  if (parsed.kind === 'unparseable') throw new HttpError(400, sayCommon('enterValidMobile'));
  const facts = await numberFacts(parsed.phone, 'en');
  if (!canReceiveSms(facts)) throw new HttpError(400, sayCommon('enterValidMobile'));
  return { e164: facts.e164, countryCode: facts.countryCode };
}

function checkNote(channel: MessageChannel, note: string): string {
  const problem = noteProblem(channel, note);
  if (problem) throw new HttpError(400, problem);
  return note.trim();
}

const daysFromNow = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);

/** The exact message a request would send, the link's token shown as …. */
export function previewMessage(config: SendSettings, user: User, body: PreviewInput) {
  const { channel, note, locale } = body;
  checkRequesterName(user.displayName);
  const message = renderMessage({
    channel,
    locale,
    requesterName: user.displayName,
    note: checkNote(channel, note),
    links: messageLinks(config.publicUrl, locale, PREVIEW_TOKEN),
    expiresAt: daysFromNow(config.requests.linkExpiryDays),
  });
  return message.subject ? { subject: message.subject, text: message.text } : { text: message.text };
}

/** What would refuse a send to this target today besides its 3-hour slot, said up front; null when nothing. */
async function dailyRefusal(
  db: DatabaseExecutor,
  limits: SendLimitsConfig,
  userId: string,
  channel: MessageChannel,
  countryCode: string | null,
) {
  if (channel === 'sms') {
    const country = smsCountryRefusal(limits, countryCode);
    if (country) return { rule: 'country' as const, texts: country, nextAllowedAt: null };
  }
  const seconds = Math.max(1, Math.ceil((nextSendDay().getTime() - Date.now()) / 1000));
  const what = channel === 'sms' ? 'number' : 'email';
  const perAccount = channel === 'sms' ? limits.smsPerAccountPerDay : limits.emailPerAccountPerDay;
  let rule: 'account-day' | 'sms-budget' | null = null;
  if (await dailyLimitReached(db, accountDayKey(channel, userId), perAccount)) rule = 'account-day';
  else if (channel === 'sms' && (await dailyLimitReached(db, SMS_BUDGET_KEY, limits.smsDailyBudget))) {
    rule = 'sms-budget';
  }
  if (!rule) return null;
  return { rule, texts: limitText(rule, what, seconds, limits), nextAllowedAt: nextSendDay().toISOString() };
}

/**
 * When the next request to a target (or the next link) is possible, whether the target opted out, and what else
 * would refuse it today (its texts in both languages). A number or address only for subscribers, a few an hour.
 */
export async function targetLimit(deps: RequestSender, config: SendSettings, userId: string, query: LimitQuery) {
  const { channel, number, country, email } = query;
  const { db } = deps;
  const { hmacSecret } = deps.auth.secrets;
  if (channel === 'link') {
    const next = await nextAllowedAt(db, linkLimitKey(userId));
    return { nextAllowedAt: next, optedOut: false, refusal: null };
  }
  // What this tells about someone else's number or address is for those who may message it, in small doses.
  await requireSubscriber(db, userId);
  throwWhenLimited(
    await countAttempt(db, `request-limit-check:${userId}`, TARGET_LIMIT_CHECKS),
    sayCommon,
    'tooManyRequests',
  );
  let target: string;
  let countryCode: string | null = null;
  if (channel === 'sms') ({ e164: target, countryCode } = await smsTarget(number, country));
  else {
    const checked = normalEmail(email ?? '');
    if (!checked.ok) throw new HttpError(400, sayCommon(checked.problem));
    target = checked.email;
  }
  const [next, optedOut, refusal] = await Promise.all([
    nextAllowedAt(db, targetLimitKey(hmacSecret, target)),
    isOptedOut(db, hmacSecret, target),
    dailyRefusal(db, config.requests.sendLimits, userId, channel, countryCode),
  ]);
  return { nextAllowedAt: next, optedOut, refusal };
}

/**
 * Sends a location request by SMS or email, for a subscriber whose name may appear in a message: the number must
 * reach a phone in one of the SMS countries, the note must hold no link. The outcome: created, limited, opted out.
 */
export async function sendMessageRequest(
  deps: RequestSender,
  config: SendSettings,
  user: User,
  message: MessageToSend,
): Promise<CreateOutcome> {
  await requireSubscriber(deps.db, user.id);
  const limits = config.requests.sendLimits;
  const byWhatsApp = message.channel === 'sms' && message.byWhatsApp === true;
  if (byWhatsApp && deps.outbox.whatsappTransport === 'none') {
    throw new HttpError(400, sayRequests('whatsappUnavailable'));
  }
  let target: string;
  if (message.channel === 'sms') {
    const { e164, countryCode } = await smsTarget(message.number, message.country);
    const notThere = smsCountryRefusal(limits, countryCode);
    if (notThere) throw new HttpError(400, notThere);
    target = e164;
  } else {
    target = message.email;
  }
  checkRequesterName(user.displayName);
  return createMessageRequest(deps, {
    channel: message.channel,
    byWhatsApp,
    target,
    templateId: message.templateId,
    note: checkNote(message.channel, message.note),
    locale: message.locale,
    requester: { userId: user.id, displayName: user.displayName },
    baseUrl: config.publicUrl,
    expiryDays: config.requests.linkExpiryDays,
    limits,
    operatorEmail: config.operatorEmail,
    voiceNote: message.voiceNote,
  });
}

/** A trackable link the subscriber shares themselves, titled; one new link every 3 hours. */
export async function sendLinkRequest(
  deps: RequestSender,
  config: SendSettings,
  user: User,
  link: { title: string; locale: Locale; voiceNote?: { id: string; text?: string | undefined } | undefined },
): Promise<CreateOutcome> {
  await requireSubscriber(deps.db, user.id);
  return createLinkRequest(deps, {
    title: link.title,
    locale: link.locale,
    requester: { userId: user.id, displayName: user.displayName },
    baseUrl: config.publicUrl,
    expiryDays: config.requests.linkExpiryDays,
    voiceNote: link.voiceNote,
  });
}
