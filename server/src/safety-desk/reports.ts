import type { Database, DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { maskedEmail } from '../messages/templates';
import { accountDayKey, sendDay } from '../requests/daily-send-counts';
import { parseNumber } from '../requests/number-facts';
import { servedAudio, type ServedAudio } from '../voice/voice-notes';
import type { ByteRange } from '../voice/audio-store';
import { dailyCountOf } from './sms-spend-rows';
import {
  otherReportsOf,
  reportById,
  reportedRequest,
  reportPage,
  reportVoiceNote,
  requestsPerDayOf,
  requesterAccount,
  smsRequestCountOf,
  type AbuseReportRow,
  type ReportCursor,
} from './report-rows';
import { standingSuspensionOf } from './standing-suspension-rows';
import { sayDesk } from './desk-messages';

// What the operator sees of abuse reports: the list, and one report with the request it concerns and its requester's
// activity. Never a recipient's position, place or voice reply: only what the requester sent and how it went.

const PAGE_SIZE = 50;
/** The requester's activity shown per day, back this many days. */
export const ACTIVITY_DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The price of one SMS, when the deployment set it (SMS_PRICE_MINOR). */
export type SmsPrice = { minor: number; currency: string } | undefined;

const reportState = (row: AbuseReportRow) => (row.closedAt ? ('closed' as const) : ('open' as const));

/** The page cursor: the last report's time and id, so reports made at the same moment are neither lost nor repeated. */
function cursorOf(row: AbuseReportRow): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

function parseCursor(cursor: string | undefined): ReportCursor | undefined {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) {
    throw new HttpError(400, sayDesk('badCursor'));
  }
  return { createdAt, id };
}

/** Reports, open or closed, newest first, a page at a time (`next`: the cursor of the following page, or null). */
export async function listReports(db: Database, state: 'open' | 'closed', before: string | undefined) {
  const rows = await reportPage(db, state === 'open', parseCursor(before), PAGE_SIZE + 1);
  const page = rows.slice(0, PAGE_SIZE);
  return {
    reports: page.map(({ report, displayName }) => ({
      id: report.id,
      createdAt: report.createdAt.toISOString(),
      reason: report.reason,
      state: reportState(report),
      outcome: report.outcome,
      requester: report.requesterId && displayName ? { id: report.requesterId, displayName } : null,
    })),
    next: rows.length > PAGE_SIZE ? cursorOf(page.at(-1)!.report) : null,
  };
}

/** "+62•••••21" / "b•••@example.com": the operator can tell targets apart without reading them whole. */
export function maskedTarget(channel: string, target: string | null): string | null {
  if (!target) return null;
  if (channel === 'email') return maskedEmail(target);
  return `${target.slice(0, 3)}•••${target.slice(-2)}`;
}

/** The country the account is known in: its phone number's, given at sign-up (payments record no country). */
function countryOf(phone: string | null): string | null {
  const parsed = parseNumber(phone ?? undefined);
  return parsed.kind === 'parsed' ? (parsed.phone.country ?? null) : null;
}

/** The requester's last ACTIVITY_DAYS days, day by day (UTC), each channel counted, days without requests too. */
async function requestsPerDay(db: DatabaseExecutor, userId: string, now: Date) {
  const first = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (ACTIVITY_DAYS - 1) * DAY_MS,
  );
  const counted = await requestsPerDayOf(db, userId, first);
  return Array.from({ length: ACTIVITY_DAYS }, (_, index) => {
    const day = sendDay(new Date(first.getTime() + index * DAY_MS));
    const count = (channel: string) => counted.find((row) => row.day === day && row.channel === channel)?.count ?? 0;
    return { day, sms: count('sms'), email: count('email'), link: count('link') };
  });
}

async function requesterProfile(db: DatabaseExecutor, requesterId: string, reportId: string, price: SmsPrice) {
  const user = await requesterAccount(db, requesterId);
  if (!user) return null;
  const now = new Date();
  const [perDay, others, smsToday, smsTotal, suspension] = await Promise.all([
    requestsPerDay(db, user.id, now),
    otherReportsOf(db, user.id, reportId, 50),
    dailyCountOf(db, accountDayKey('sms', user.id), sendDay(now)),
    smsRequestCountOf(db, user.id),
    standingSuspensionOf(db, user.id),
  ]);
  return {
    id: user.id,
    displayName: user.displayName,
    createdAt: user.createdAt.toISOString(),
    accountAgeDays: Math.floor((now.getTime() - user.createdAt.getTime()) / DAY_MS),
    country: countryOf(user.phone),
    locale: user.locale,
    requestsPerDay: perDay,
    otherReports: others.map((other) => ({
      id: other.id,
      createdAt: other.createdAt.toISOString(),
      reason: other.reason,
      state: other.closedAt ? ('closed' as const) : ('open' as const),
    })),
    smsSpent: {
      today: smsToday,
      total: smsTotal,
      todayMinor: price ? smsToday * price.minor : null,
      totalMinor: price ? smsTotal * price.minor : null,
      currency: price?.currency ?? null,
    },
    suspension: suspension
      ? {
          id: suspension.id,
          suspendedAt: suspension.suspendedAt.toISOString(),
          note: suspension.note,
          refundOwed: suspension.refundPaymentId !== null,
        }
      : null,
  };
}

/** One report, the request it concerns (while it exists) and its requester (while the account exists); else 404. */
export async function reportDetail(db: Database, id: string, price: SmsPrice) {
  const report = await reportById(db, id);
  if (!report) throw new HttpError(404, sayDesk('reportNotFound'));
  const [request, voiceNote, requester] = await Promise.all([
    report.requestId ? reportedRequest(db, report.requestId) : undefined,
    reportVoiceNote(db, report.id),
    report.requesterId ? requesterProfile(db, report.requesterId, report.id, price) : null,
  ]);
  return {
    report: {
      id: report.id,
      createdAt: report.createdAt.toISOString(),
      reason: report.reason,
      details: report.details,
      state: reportState(report),
      outcome: report.outcome,
      closedAt: report.closedAt?.toISOString() ?? null,
      operatorNote: report.operatorNote,
      voiceNote: voiceNote ? { id: voiceNote.id, durationMs: voiceNote.durationMs, text: voiceNote.text } : null,
    },
    request: request
      ? {
          id: request.id,
          channel: request.channel,
          maskedTarget: maskedTarget(request.channel, request.target),
          messageText: request.note,
          createdAt: request.createdAt.toISOString(),
          openedAt: request.openedAt?.toISOString() ?? null,
          decidedAt: request.decidedAt?.toISOString() ?? null,
          cancelledAt: request.cancelledAt?.toISOString() ?? null,
          expiresAt: request.expiresAt.toISOString(),
          status: request.status,
          consent: request.consent,
        }
      : null,
    requester,
  };
}

/** The copy of the voice note the recipient heard, kept with the report (or the range asked); 404 without one. */
export async function reportVoiceNoteAudio(
  db: Database,
  reportId: string,
  range: (size: number) => ByteRange | undefined,
): Promise<ServedAudio> {
  const note = await reportVoiceNote(db, reportId);
  if (!note) throw new HttpError(404, sayDesk('noVoiceNote'));
  return servedAudio(db, note, range);
}
