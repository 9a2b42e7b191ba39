import { UAParser } from 'ua-parser-js';
import type { ApiBody } from '@kabari/shared/api/api-types';
import { apiTarget } from '../../lib/api-headers';
import { hostApiHeaderSource } from '../../lib/host-api-header-source';
import { isRecipientPage } from './recipient-pages';
import { markVisitorReported } from './visitor-report-flag';

export const visitorReportPath = '/api/v1/locate/userAgent';

/** The visitor device report. */
export type VisitorReport = ApiBody<typeof visitorReportPath, 'post'>;

export interface VisitContext {
  visitorId: string;
  userAgent: string;
  pageUrl: string;
  referrer: string;
  now: Date;
}

// A marker such as "sms" or "newsletter-2026": anything else (a name, a number, a token) is not a source.
const sourceMarker = /^[\w.-]{1,64}$/;

/** An http(s) address as a URL, or null. */
function webAddress(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** ua-parser-js knows more device kinds (console, smart TV, wearable…); the report has three. */
function deviceTypeOf(type: string | undefined): VisitorReport['deviceType'] {
  return type === 'mobile' || type === 'tablet' ? type : 'desktop';
}

/**
 * The report about a visit. The page is kept without its query string or fragment (a link's token, a reset code or
 * anything else may travel there), and of the referrer only its site: another site's path or query may say who the
 * visitor is. The source is read from the landing page's ?source=, and kept only when it is a short marker.
 */
export function buildVisitorReport({ visitorId, userAgent, pageUrl, referrer, now }: VisitContext): VisitorReport {
  const { os, browser, device } = UAParser(userAgent);
  const page = new URL(pageUrl);
  const source = page.searchParams.get('source');
  const referrerSite = webAddress(referrer);
  return {
    visitorId,
    userAgent,
    osName: os.name ?? null,
    osVersion: os.version ?? null,
    browserName: browser.name ?? null,
    browserVersion: browser.version ?? null,
    deviceType: deviceTypeOf(device.type),
    deviceBrand: device.vendor ?? null,
    deviceModel: device.model ?? null,
    pageUrl: `${page.origin}${page.pathname}`,
    referrerUrl: referrerSite ? `${referrerSite.origin}/` : null,
    source: source !== null && sourceMarker.test(source) ? source : null,
    visitTime: now.toISOString(),
  };
}

/**
 * POST /api/v1/locate/userAgent about the page the visit began on (`landingUrl`), then the flag. A failure is only
 * logged: without the flag, the next page load tries again. Nothing is sent while the visitor is on
 * a recipient's page (they may have followed a link there before the browser was idle); the next load tries again.
 *
 * Sent with fetch and the API's own headers rather than through the axios instance: it is the one
 * call a first visit to a prerendered page makes, and axios (~21 KB gzip) would come with it. The
 * answer is not read, and a write is never retried, so the interceptors would add nothing here.
 */
export async function reportVisitor(
  visitorId: string,
  fetchImpl: typeof fetch = fetch,
  landingUrl: string = window.location.href,
): Promise<void> {
  if (isRecipientPage(window.location.pathname)) return;
  const report = buildVisitorReport({
    visitorId,
    userAgent: navigator.userAgent,
    pageUrl: landingUrl,
    referrer: document.referrer,
    now: new Date(),
  });
  try {
    const { baseUrl, headers } = await apiTarget(hostApiHeaderSource);
    const response = await fetchImpl(`${baseUrl}${visitorReportPath}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(report),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    markVisitorReported(visitorId);
  } catch (error) {
    console.warn('[kabari] visitor report not sent; it is tried again on the next visit', error);
  }
}
