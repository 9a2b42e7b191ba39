import type { DatabaseExecutor } from '../db/open-database';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';
import { isRecipientPage } from '../lib/recipient-pages';
import { insertVisitorReport, type NewVisitorReport } from './visitor-report-rows';
import { webAddress } from '../lib/web-address';

const say = messagesOf('locate');

/** A visitor's device report as the browser sends it: only what the browser says about itself. */
export interface VisitorReport {
  visitorId: string;
  userAgent: string;
  osName: string | null;
  osVersion: string | null;
  browserName: string | null;
  browserVersion: string | null;
  deviceType: NewVisitorReport['deviceType'];
  deviceBrand: string | null;
  deviceModel: string | null;
  pageUrl: string | null;
  referrerUrl: string | null;
  source: string | null;
  visitTime: string;
}

// A marker such as "sms" or "newsletter-2026": anything else (a name, a number, a token) is not a source.
const SOURCE_MARKER = /^[\w.-]{1,64}$/;

/**
 * Stores a visitor's device report with no more than it needs: the page without its query or fragment, the
 * referrer's site only, a source only when it is a short marker. A report from a location request's pages is
 * refused: nothing about a recipient is recorded before they consent.
 */
export async function recordVisitorReport(db: DatabaseExecutor, report: VisitorReport): Promise<void> {
  const page = report.pageUrl === null ? null : webAddress(report.pageUrl);
  if (page && isRecipientPage(page.pathname)) throw new HttpError(400, say('recipientPage'));
  // Another site's path or query may say who the visitor is (a search, a profile): its site is enough.
  const referrer = report.referrerUrl === null ? null : webAddress(report.referrerUrl);
  await insertVisitorReport(db, {
    ...report,
    pageUrl: page ? `${page.origin}${page.pathname}` : null,
    referrerUrl: referrer ? `${referrer.origin}/` : null,
    source: report.source !== null && SOURCE_MARKER.test(report.source) ? report.source : null,
    visitTime: new Date(report.visitTime),
  });
}
