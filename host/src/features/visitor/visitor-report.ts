import { UAParser } from 'ua-parser-js';
import { apiTarget } from '../../lib/api-headers';
import { hostApiHeaderSource } from '../../lib/host-api-header-source';
import { markVisitorReported } from './visitor-report-flag';

/** Spec §3: the visitor device report. */
export interface VisitorReport {
  visitorId: string;
  userAgent: string;
  osName: string | null;
  osVersion: string | null;
  browserName: string | null;
  browserVersion: string | null;
  deviceType: 'mobile' | 'tablet' | 'desktop';
  deviceBrand: string | null;
  deviceModel: string | null;
  pageUrl: string;
  referrerUrl: string | null;
  source: string | null;
  visitTime: string;
}

export interface VisitContext {
  visitorId: string;
  userAgent: string;
  pageUrl: string;
  referrer: string;
  now: Date;
}

/** ua-parser-js knows more device kinds (console, smart TV, wearable…); the report has three. */
function deviceTypeOf(type: string | undefined): VisitorReport['deviceType'] {
  return type === 'mobile' || type === 'tablet' ? type : 'desktop';
}

export function buildVisitorReport({ visitorId, userAgent, pageUrl, referrer, now }: VisitContext): VisitorReport {
  const { os, browser, device } = UAParser(userAgent);
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
    pageUrl,
    referrerUrl: referrer || null,
    // Where the visitor came from: the landing page's ?source= (spec §3).
    source: new URL(pageUrl).searchParams.get('source'),
    visitTime: now.toISOString(),
  };
}

export const visitorReportPath = '/api/v1/locate/userAgent';

/**
 * POST /api/v1/locate/userAgent, then the flag. A failure is only logged: without the flag, the next
 * page load tries again (spec §7, §8).
 *
 * Sent with fetch and the API's own headers rather than through the axios instance: it is the one
 * call a first visit to a prerendered page makes, and axios (~21 KB gzip) would come with it. The
 * answer is not read, and a write is never retried, so the interceptors would add nothing here.
 */
export async function reportVisitor(visitorId: string, fetchImpl: typeof fetch = fetch): Promise<void> {
  const report = buildVisitorReport({
    visitorId,
    userAgent: navigator.userAgent,
    pageUrl: window.location.href,
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
