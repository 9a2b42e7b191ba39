import type { Database, DatabaseExecutor } from '../db/open-database';
import { LOCALES, messagesIn, type Locale } from '../lib/messages';
import type { MessageOutbox } from '../messages/message-outbox';
import { twilioIncomingSms, type IncomingSms } from '../messages/twilio-inbound';
import type { TwilioSettings } from '../messages/twilio-sms';
import { isSignedByTwilio } from '../messages/twilio-status';
import { countDailySend, SMS_BUDGET_KEY } from '../requests/daily-send-counts';
import { isOptedOut, optOutKey } from '../requests/opt-outs';
import { requestsToAddress, requestToAddress } from './consent-overview-rows';
import { linkState, optOutAddress } from './link-consent';
import { hasTombstoneOf, newestMessageLocaleTo, repliedMessageById } from './reply-opt-out-rows';

// An opt-out by reply: a recipient who answers one of Kabari's SMS or WhatsApp messages with a stop word ("STOP",
// "BERHENTI") is opted out exactly as by the link's "No more requests" (the number's keyed hash, every unanswered
// request to it declined), and is told so once, on the channel they answered on, in the language of the message they
// got. Nothing is stored about a number Kabari never wrote to, and a reply that is not a stop word changes nothing.

const say = messagesIn('replyOptOut');

// The keywords Twilio itself treats as an opt-out on a long code, and the Indonesian word. A reply is compared whole,
// as Twilio compares it ("stop please" is not one), in any case, with punctuation and spaces around it ignored.
const STOP_WORDS = new Set([
  'STOP',
  'STOPALL',
  'STOP ALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
  'OPT OUT',
  'BERHENTI',
]);

/** The stop word a reply is (upper case, single-spaced), or undefined when it is any other text. */
export function stopWordOf(text: string): string | undefined {
  const word = text
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return STOP_WORDS.has(word) ? word : undefined;
}

// A number as Kabari writes to it, by SMS or (Twilio's "whatsapp:" before it) by WhatsApp. Anything else (a short
// code's name, another channel's address) was never written to.
const REPLY_SENDER = /^(whatsapp:)?(\+[1-9]\d{6,14})$/;

export interface ReplyOptOutDeps {
  db: Database;
  outbox: MessageOutbox;
  hmacSecret: Buffer;
  /** The operator's daily SMS budget: the confirmation counts in it while there is room, and is sent either way. */
  smsDailyBudget: number;
}

export type ReplyOutcome = 'opted-out' | 'already-opted-out' | 'not-a-stop-word' | 'unknown-number';

const localeOf = (value: string | undefined): Locale | undefined => LOCALES.find((locale) => locale === value);

/**
 * A text from a number: a stop word from a number Kabari wrote to (an SMS still in the outbox, a request, or a
 * deleted request's tombstone) opts it out and queues one confirmation; the same reply again, or a stop word from a
 * number already opted out (by its link or an earlier reply), changes nothing and sends nothing. A confirmation is
 * left to Twilio when Twilio answered the keyword itself.
 */
export async function optOutByReply(deps: ReplyOptOutDeps, reply: IncomingSms): Promise<ReplyOutcome> {
  const word = stopWordOf(reply.text);
  if (!word) return 'not-a-stop-word';
  const sender = REPLY_SENDER.exec(reply.from);
  if (!sender) return 'unknown-number';
  const channel = sender[1] ? 'whatsapp' : 'sms';
  const number = sender[2]!;
  const targetHash = optOutKey(deps.hmacSecret, number);
  const [messageLocale, requests] = await Promise.all([
    newestMessageLocaleTo(deps.db, channel, number),
    requestsToAddress(deps.db, targetHash),
  ]);
  if (messageLocale === undefined && requests.length === 0 && !(await hasTombstoneOf(deps.db, targetHash))) {
    return 'unknown-number';
  }
  if (await isOptedOut(deps.db, deps.hmacSecret, number)) return 'already-opted-out';

  // The language of the newest message to the number on the reply's channel, else of its newest request, else of
  // the stop word.
  const locale = localeOf(messageLocale) ?? requests[0]?.locale ?? (word === 'BERHENTI' ? 'id' : 'en');
  const waiting = requests.filter((row) => linkState(row) === 'open');
  const keys = waiting.map((row) => ({
    // Locked and read afresh; one deleted meanwhile has nothing left to decline.
    find: async (tx: DatabaseExecutor) =>
      (await requestToAddress(tx, targetHash, row.id)) ?? { ...row, consent: 'declined' as const },
  }));
  await optOutAddress(deps.db, targetHash, 'sms', keys, async (tx) => {
    if (reply.answeredByTwilio) return;
    // Keyed by the number: two deliveries of the same reply at once queue one confirmation. On WhatsApp it answers
    // the recipient's own message, so it may be free text rather than an approved template.
    const confirmation = { idempotencyKey: `reply-opt-out:${targetHash}`, to: number, locale };
    const queued =
      channel === 'whatsapp'
        ? await deps.outbox.queueWhatsApp(tx, { ...confirmation, content: { reply: say(locale, 'confirmation') } })
        : await deps.outbox.queueSms(tx, { ...confirmation, text: say(locale, 'confirmation') });
    if (queued) await countDailySend(tx, SMS_BUDGET_KEY, deps.smsDailyBudget);
  });
  deps.outbox.kick();
  return 'opted-out';
}

/** An incoming message webhook as Twilio posted it: the URL it posted to (the public one), its signature and fields. */
export interface TwilioIncomingCallback {
  url: string;
  signature: string | undefined;
  params: Record<string, string>;
}

export type TwilioReplyOutcome =
  { kind: 'not-configured' } | { kind: 'forbidden' } | { kind: ReplyOutcome | 'ignored' };

/**
 * Twilio's incoming message webhook: refused unless signed with our auth token for the public URL (as a status
 * callback is); then the text goes through the opt-out by reply. A post that carries no message is ignored.
 */
export async function receiveTwilioReply(
  deps: ReplyOptOutDeps,
  twilio: Pick<TwilioSettings, 'authToken'> | undefined,
  callback: TwilioIncomingCallback,
): Promise<TwilioReplyOutcome> {
  if (!twilio) return { kind: 'not-configured' };
  if (!isSignedByTwilio(twilio.authToken, callback.signature, callback.url, callback.params)) {
    return { kind: 'forbidden' };
  }
  const sms = twilioIncomingSms(callback.params);
  if (!sms) return { kind: 'ignored' };
  return { kind: await optOutByReply(deps, sms) };
}

/**
 * The local outbox's "Reply STOP": the recipient of an SMS or WhatsApp message in the outbox answers it, on its
 * channel, with the stop word of its language, through the same rule as a reply Twilio posts (no signature: the dev
 * tools' token guards it). Undefined when the id is no SMS or WhatsApp message of the outbox.
 */
export async function simulateStopReply(
  deps: ReplyOptOutDeps,
  messageId: string,
  text?: string,
): Promise<ReplyOutcome | undefined> {
  const message = await repliedMessageById(deps.db, messageId);
  if (!message) return undefined;
  const word = text ?? stopReplyIn(localeOf(message.locale) ?? 'en');
  // Twilio names a WhatsApp sender "whatsapp:+…".
  const from = message.channel === 'whatsapp' ? `whatsapp:${message.recipient}` : message.recipient;
  return optOutByReply(deps, { from, text: word, answeredByTwilio: false });
}

/** The stop word a reader of the language would send. */
export const stopReplyIn = (locale: Locale) => (locale === 'id' ? 'BERHENTI' : 'STOP');
