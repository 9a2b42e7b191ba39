import { randomBytes } from 'node:crypto';
import { countAttempt, throttleKey, type ThrottleRule } from '../auth/throttle';
import { insertCode, consumeLiveCodeByHash, liveCodeByHash } from '../auth/verification-code-rows';
import { issueSixDigitCode, redeemSixDigitCode } from '../auth/verification-codes';
import type { RequestChannel } from '../db/column-values';
import type { Database, DatabaseExecutor } from '../db/open-database';
import type { ReverseGeocoder } from '../geo/reverse-geocode';
import { normalEmail } from '../lib/email-address';
import { HttpError } from '../lib/envelope';
import { keyedHash } from '../lib/keyed-hash';
import { messagesOf, sayCommon, type Locale } from '../lib/messages';
import { throwWhenLimited } from '../lib/throttle-answer';
import type { MessageOutbox } from '../messages/message-outbox';
import { overviewCodeEmail, overviewCodeSms } from '../messages/templates';
import { countDailySend, SMS_BUDGET_KEY } from '../requests/daily-send-counts';
import { parseNumber } from '../requests/number-facts';
import { optOutKey } from '../requests/opt-outs';
import type { SendLimitsConfig } from '../requests/requests-config';
import { smsCountryRefusal } from '../requests/sms-countries';
import type { ByteRange } from '../voice/audio-store';
import { requestVoiceNote, servedAudio, type ServedAudio, voiceNotesByRequest } from '../voice/voice-notes';
import { lookSummaries, positionSummaries, requestsToAddress, requestToAddress } from './consent-overview-rows';
import {
  declineRequest,
  linkState,
  noteHeardIn,
  notSharing,
  optOutAddress,
  reportAbuse,
  stopSharing,
  withdrawConsent,
  type AbuseReport,
  type RequestKey,
} from './link-consent';
import type { LocationRequestRow } from './link-rows';
import type { LinkState } from './link-states';
import type { ShareThrottle } from './share-throttle';

// "Who can see me": the consent overview of a person who received requests, without an account. They prove an
// address (a number or an email) with a code sent there; for at most 15 minutes they then see the requests sent to
// it and act on them with the link's own rules (the requester is told exactly as for an action on the link, never
// that it came from here). Nothing new is stored about them: the code and the session are verification codes keyed
// by the address's keyed hash, which the requests already hold (target_hash), and they expire within 15 minutes.

const say = messagesOf('myRequests');

/** How long a proven address stays open: a phone left unlocked on a table shows the list no longer than this. */
const OVERVIEW_SESSION_MS = 15 * 60_000;
/** Ended requests are listed this long after they ended: numbers change hands, older ones may be someone else's. */
const ENDED_SHOWN_MS = 30 * 24 * 60 * 60_000;

// A code goes to whatever address is typed, so both the address and the network that asks are held to a few.
const CODES_PER_ADDRESS: ThrottleRule = { limit: 3, windowSeconds: 15 * 60 };
const CODES_PER_ADDRESS_DAY: ThrottleRule = { limit: 8, windowSeconds: 24 * 60 * 60 };
const CODES_PER_IP: ThrottleRule = { limit: 10, windowSeconds: 60 * 60 };
// A code has 5 attempts of its own; these hold guesses across codes.
const CHECKS_PER_ADDRESS: ThrottleRule = { limit: 10, windowSeconds: 15 * 60 };
const CHECKS_PER_IP: ThrottleRule = { limit: 30, windowSeconds: 15 * 60 };
// The overview's own calls: a page load, a few actions.
const USES_PER_SESSION: ThrottleRule = { limit: 120, windowSeconds: 15 * 60 };

/** What the overview's rules use: the database, the outbox, the secret, the send limits, the link's throttle. */
export interface OverviewDeps {
  db: Database;
  outbox: MessageOutbox;
  hmacSecret: Buffer;
  /** The configured public address: the code's message names it, and the requester's notices link to it. */
  publicUrl: string;
  geocoder: ReverseGeocoder;
  sendLimits: SendLimitsConfig;
  /** The links' throttle: a report from the overview counts with the reports made on links. */
  shareThrottle: ShareThrottle;
  /** Multiplies every limit (the local trial's and the tests' setting). */
  throttleScale: number;
}

/** An address as a request stores it: an E.164 number (SMS) or a lower-cased email. */
interface Address {
  channel: Extract<RequestChannel, 'sms' | 'email'>;
  target: string;
  countryCode: string | null;
}

/** What was typed, as an address: an email when it has an @, else a number (national numbers in the first SMS country). */
function addressOf(input: string, limits: SendLimitsConfig): Address {
  if (input.includes('@')) {
    const checked = normalEmail(input);
    if (!checked.ok) throw new HttpError(400, sayCommon(checked.problem));
    return { channel: 'email', target: checked.email, countryCode: null };
  }
  const parsed = parseNumber(input, limits.smsCountries[0]);
  if (parsed.kind !== 'parsed' || !parsed.phone.isValid()) throw new HttpError(400, say('enterAddress'));
  return { channel: 'sms', target: parsed.phone.number, countryCode: parsed.phone.country ?? null };
}

async function throttle(deps: OverviewDeps, kind: string, value: string, rule: ThrottleRule, network = false) {
  const scaled = { ...rule, limit: rule.limit * deps.throttleScale };
  const decision = await countAttempt(deps.db, throttleKey(deps.hmacSecret, kind, value), scaled);
  if (network) throwWhenLimited(decision, sayCommon, 'tooManyFromNetwork');
  else throwWhenLimited(decision, say, 'codesToAddress');
}

/** The code row's key: the address's keyed hash (the code is bound to it inside its HMAC as well). */
const codeKey = (targetHash: string) => `overview:${targetHash}`;

export interface CodeAsk {
  address: string;
  locale: Locale;
}

/**
 * Sends a 6-digit code to the address typed: by SMS to a number (only in the SMS countries, within the operator's
 * daily SMS budget; otherwise the answer asks for an email address), by email otherwise. It is sent whether or not
 * any request went there, and nothing about requests is read: the answer and the work are the same for every
 * address, so this call cannot tell anyone whether an address was ever asked for.
 */
export async function sendOverviewCode(
  deps: OverviewDeps,
  ip: string,
  ask: CodeAsk,
): Promise<{ channel: Address['channel'] }> {
  await throttle(deps, 'overview-code:ip', ip, CODES_PER_IP, true);
  const address = addressOf(ask.address, deps.sendLimits);
  if (address.channel === 'sms' && smsCountryRefusal(deps.sendLimits, address.countryCode)) {
    const countries = (locale: Locale) =>
      new Intl.ListFormat(locale, { type: 'disjunction' }).format(
        deps.sendLimits.smsCountries.map(
          (code) => new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code,
        ),
      );
    throw new HttpError(400, {
      en: say('smsCountry', { countries: countries('en') }).en,
      id: say('smsCountry', { countries: countries('id') }).id,
    });
  }
  await throttle(deps, 'overview-code:address', address.target, CODES_PER_ADDRESS);
  await throttle(deps, 'overview-code:address-day', address.target, CODES_PER_ADDRESS_DAY);
  const targetHash = optOutKey(deps.hmacSecret, address.target);
  await deps.db.transaction(async (tx) => {
    const { code, codeId } = await issueSixDigitCode(tx, deps.hmacSecret, 'overview_code', codeKey(targetHash));
    const idempotencyKey = `overview-code:${codeId}`;
    if (address.channel === 'email') {
      const email = overviewCodeEmail(ask.locale, code, deps.publicUrl);
      await deps.outbox.queue(tx, { idempotencyKey, to: address.target, locale: ask.locale, ...email });
      return;
    }
    // The operator pays for every SMS: a code counts in the same daily budget as the requests.
    const counted = await countDailySend(tx, SMS_BUDGET_KEY, deps.sendLimits.smsDailyBudget);
    if (!counted.counted) throw new HttpError(429, say('smsBudget'));
    const text = overviewCodeSms(ask.locale, code, deps.publicUrl);
    await deps.outbox.queueSms(tx, { idempotencyKey, to: address.target, locale: ask.locale, text });
  });
  deps.outbox.kick();
  return { channel: address.channel };
}

/** The session's cookie value is random; the row keeps its keyed hash. */
const sessionHash = (secret: Buffer, token: string) => keyedHash(secret, 'overview-session', token);

export interface CodeCheck {
  address: string;
  code: string;
}

/**
 * The code sent to an address, entered: right, live and unused, it opens a session of OVERVIEW_SESSION_MS for
 * that address (a random token for the cookie) and is used up. A wrong code costs one of its attempts and counts
 * in the address's and the network's throttles; an expired, used or unknown one is refused alike (400).
 */
export async function openOverviewSession(
  deps: OverviewDeps,
  ip: string,
  check: CodeCheck,
): Promise<{ token: string; expiresAt: Date }> {
  await throttle(deps, 'overview-check:ip', ip, CHECKS_PER_IP, true);
  const address = addressOf(check.address, deps.sendLimits);
  await throttle(deps, 'overview-check:address', address.target, CHECKS_PER_ADDRESS);
  const targetHash = optOutKey(deps.hmacSecret, address.target);
  // Not in a transaction: a wrong code's spent attempt must stay spent when the refusal is thrown.
  const redeemed = await redeemSixDigitCode(deps.db, deps.hmacSecret, 'overview_code', codeKey(targetHash), check.code);
  if (!redeemed) throw new HttpError(400, sayCommon('invalidCode'));
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + OVERVIEW_SESSION_MS);
  await insertCode(deps.db, {
    email: `${address.channel}:${targetHash}`,
    purpose: 'overview_session',
    codeHash: sessionHash(deps.hmacSecret, token),
    expiresAt,
  });
  return { token, expiresAt };
}

/** A session's address: its keyed hash and channel, and when the session ends. */
interface ProvenAddress {
  targetHash: string;
  channel: Address['channel'];
  expiresAt: Date;
}

const SESSION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The address a session's token proved; 401 when there is none, or it ended or expired. */
async function provenAddress(deps: OverviewDeps, token: string | undefined): Promise<ProvenAddress> {
  const ended = () => new HttpError(401, say('sessionEnded'));
  if (!token || !SESSION_TOKEN.test(token)) throw ended();
  const row = await liveCodeByHash(deps.db, 'overview_session', sessionHash(deps.hmacSecret, token));
  if (!row) throw ended();
  const [channel, targetHash] = row.email.split(':') as [Address['channel'], string];
  await throttle(deps, 'overview-session', targetHash, USES_PER_SESSION, true);
  return { targetHash, channel, expiresAt: row.expiresAt };
}

/** Ends a session at once (Quick exit, or leaving): its token opens nothing any more. Nothing to end is fine. */
export async function endOverviewSession(deps: OverviewDeps, token: string | undefined): Promise<void> {
  if (!token || !SESSION_TOKEN.test(token)) return;
  await consumeLiveCodeByHash(deps.db, 'overview_session', sessionHash(deps.hmacSecret, token));
}

/** One request as the overview lists it. */
export interface OverviewRequest {
  id: string;
  requesterName: string;
  channel: RequestChannel;
  state: LinkState;
  askedAt: string;
  expiresAt: string;
  liveUntil: string | null;
  endedAt: string | null;
  looks: { count: number; lastAt: string | null };
  shared: { positions: number; lastAt: string | null };
  voiceNote: { durationMs: number; text: string | null } | null;
}

export interface ConsentOverview {
  sessionEndsAt: string;
  channel: Address['channel'];
  requests: OverviewRequest[];
}

/** When a request ended, by what ended it; null while it is open or shared. */
function endedAt(row: LocationRequestRow, state: LinkState): Date | null {
  if (state === 'open' || state === 'sharing') return null;
  if (state === 'expired') return row.expiresAt;
  if (state === 'cancelled') return row.cancelledAt ?? row.decidedAt ?? row.expiresAt;
  return row.decidedAt ?? row.expiresAt;
}

/** The requests to the proven address that are open, or ended within ENDED_SHOWN_MS, with their state. */
async function listed(deps: OverviewDeps, targetHash: string, now = new Date()) {
  const shownSince = now.getTime() - ENDED_SHOWN_MS;
  return (await requestsToAddress(deps.db, targetHash))
    .map((row) => ({ row, state: linkState(row, now) }))
    .filter(({ row, state }) => (endedAt(row, state)?.getTime() ?? Infinity) >= shownSince);
}

/**
 * The overview: every request to the proven address still open (waiting, shared, live until a time) and those
 * that ended in the last 30 days: who asked, when, how, the state, the requester's looks, what was shared (how
 * many positions, the last time; never where) and the voice note.
 */
export async function consentOverview(deps: OverviewDeps, token: string | undefined): Promise<ConsentOverview> {
  const proven = await provenAddress(deps, token);
  const requests = await listed(deps, proven.targetHash);
  const ids = requests.map(({ row }) => row.id);
  const [shared, looks, voice] = await Promise.all([
    positionSummaries(deps.db, ids),
    lookSummaries(deps.db, ids),
    voiceNotesByRequest(deps.db, ids),
  ]);
  const iso = (date: Date | null | undefined) => date?.toISOString() ?? null;
  return {
    sessionEndsAt: proven.expiresAt.toISOString(),
    channel: proven.channel,
    requests: requests.map(({ row, state }) => {
      const note = voice.get(row.id)?.note;
      const positions = shared.get(row.id);
      const looked = looks.get(row.id);
      return {
        id: row.id,
        requesterName: row.requesterName ?? '',
        channel: row.channel,
        state,
        askedAt: row.createdAt.toISOString(),
        expiresAt: row.expiresAt.toISOString(),
        liveUntil: row.liveUntil && row.liveUntil > new Date() ? row.liveUntil.toISOString() : null,
        endedAt: iso(endedAt(row, state)),
        looks: { count: looked?.count ?? 0, lastAt: iso(looked?.lastAt) },
        shared: { positions: positions?.count ?? 0, lastAt: iso(positions?.lastAt) },
        voiceNote: note && noteHeardIn(row) ? { durationMs: note.durationMs, text: note.text } : null,
      };
    }),
  };
}

/** A request to the proven address, as the link's rules take it: found and locked, or 404 (another's is unknown). */
function keyOf(targetHash: string, requestId: string): Exclude<RequestKey, string> {
  return {
    find: async (tx: DatabaseExecutor) => {
      const row = await requestToAddress(tx, targetHash, requestId);
      if (!row) throw new HttpError(404, sayCommon('requestNotFound'));
      return row;
    },
  };
}

export type RequestAction = 'decline' | 'stop' | 'withdraw';

/** Decline, Stop sharing, or Stop and erase one request to the proven address, by the link's own rules. */
export async function actOnRequest(
  deps: OverviewDeps,
  token: string | undefined,
  requestId: string,
  action: RequestAction,
): Promise<LinkState> {
  const { targetHash } = await provenAddress(deps, token);
  const key = keyOf(targetHash, requestId);
  const notices = { outbox: deps.outbox, publicUrl: deps.publicUrl };
  if (action === 'decline') return declineRequest(deps.db, notices, key);
  if (action === 'stop') return stopSharing(deps.db, notices, key);
  return withdrawConsent(deps.db, notices, deps.geocoder, key);
}

/** Reports one request to the proven address, as its link's report does (the same per-link and per-browser limits). */
export async function reportRequest(
  deps: OverviewDeps,
  token: string | undefined,
  requestId: string,
  report: { ip: string; reporterKey: string } & AbuseReport,
): Promise<string> {
  const { targetHash } = await provenAddress(deps, token);
  const row = await keyOf(targetHash, requestId).find(deps.db);
  const { ip, reporterKey, ...said } = report;
  return reportAbuse(deps.db, deps.shareThrottle, ip, { tokenHash: row.tokenHash }, reporterKey, said);
}

/** The requester's voice note of a request to the proven address, while the link would play it (409 otherwise). */
export async function overviewVoiceNote(
  deps: OverviewDeps,
  token: string | undefined,
  requestId: string,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const { targetHash } = await provenAddress(deps, token);
  const row = await keyOf(targetHash, requestId).find(deps.db);
  if (!noteHeardIn(row)) throw notSharing(linkState(row));
  return servedAudio(deps.db, await requestVoiceNote(deps.db, row.id), range);
}

/** Runs a rule on each request; one whose state moved on meanwhile (409) is left as it now is. */
async function eachOf(rows: LocationRequestRow[], act: (row: LocationRequestRow) => Promise<unknown>) {
  let done = 0;
  for (const row of rows) {
    try {
      await act(row);
      done += 1;
    } catch (error) {
      if (!(error instanceof HttpError && error.statusCode === 409)) throw error;
    }
  }
  return done;
}

/** What an action on every request did: how many shares ended (or were erased) and how many waiting ones were declined. */
export interface EverythingDone {
  ended: number;
  declined: number;
}

/**
 * Stop everything: every share to the proven address ends (what was shared stays with the requester, as after
 * Stop sharing) and every request still waiting is declined, each by the link's rules.
 */
export async function stopEverything(deps: OverviewDeps, token: string | undefined): Promise<EverythingDone> {
  const { targetHash } = await provenAddress(deps, token);
  const requests = await listed(deps, targetHash);
  const notices = { outbox: deps.outbox, publicUrl: deps.publicUrl };
  const of = (state: LinkState) => requests.filter((entry) => entry.state === state).map(({ row }) => row);
  return {
    ended: await eachOf(of('sharing'), (row) => stopSharing(deps.db, notices, keyOf(targetHash, row.id))),
    declined: await eachOf(of('open'), (row) => declineRequest(deps.db, notices, keyOf(targetHash, row.id))),
  };
}

/**
 * Erase everything: every request to the proven address that shared anything is stopped and erased (Stop and
 * erase), and every request still waiting is declined.
 */
export async function eraseEverything(deps: OverviewDeps, token: string | undefined): Promise<EverythingDone> {
  const { targetHash } = await provenAddress(deps, token);
  const requests = await listed(deps, targetHash);
  const notices = { outbox: deps.outbox, publicUrl: deps.publicUrl };
  const shared = requests.filter(({ state }) => state === 'sharing' || state === 'stopped').map(({ row }) => row);
  const waiting = requests.filter(({ state }) => state === 'open').map(({ row }) => row);
  return {
    ended: await eachOf(shared, (row) => withdrawConsent(deps.db, notices, deps.geocoder, keyOf(targetHash, row.id))),
    declined: await eachOf(waiting, (row) => declineRequest(deps.db, notices, keyOf(targetHash, row.id))),
  };
}

/** No more requests: the proven address opts out of every future request (the link's opt-out, for the address). */
export async function noMoreRequests(deps: OverviewDeps, token: string | undefined): Promise<void> {
  const { targetHash, channel } = await provenAddress(deps, token);
  const waiting = (await listed(deps, targetHash)).filter(({ state }) => state === 'open');
  await optOutAddress(
    deps.db,
    targetHash,
    channel,
    waiting.map(({ row }) => keyOf(targetHash, row.id)),
  );
}
