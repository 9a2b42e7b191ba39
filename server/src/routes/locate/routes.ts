import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DBIP_ATTRIBUTION } from '../../geo/ip-location';
import { envelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { inputMessage, messagesOf } from '../../lib/messages';
import { isRecipientPage } from '../../lib/recipient-pages';
import { insertVisitorReport } from './data';

const say = messagesOf('locate');

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

/** An absolute http(s) address, or null. */
function webAddress(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

// A marker such as "sms" or "newsletter-2026": anything else (a name, a number, a token) is not a source.
const SOURCE_MARKER = /^[\w.-]{1,64}$/;

// The visitor device report. Only what the browser says about itself: the IP address is not stored.
const visitorReportBody = z.object({
  visitorId: z.string().trim().min(1, 'visitorId is required').max(128),
  userAgent: z.string().trim().min(1, 'userAgent is required').max(1024),
  osName: text(128),
  osVersion: text(128),
  browserName: text(128),
  browserVersion: text(128),
  deviceType: z.enum(['mobile', 'tablet', 'desktop'], { message: 'deviceType must be mobile, tablet or desktop' }),
  deviceBrand: text(128),
  deviceModel: text(128),
  pageUrl: text(2048).refine((value) => value === null || webAddress(value) !== null, inputMessage('locate.pageUrl')),
  referrerUrl: text(2048),
  source: text(256).describe('The source query parameter of the landing page: a short marker, else not kept'),
  visitTime: z.iso.datetime({ offset: true, message: 'visitTime must be an ISO timestamp' }),
});

const locateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/locate/userAgent',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['visitors'],
        summary: "Record a visitor's device report (sent once per visitor and host, from public pages only)",
        description:
          'Kept without the query string or fragment of the page, and of the referrer only its site. A report from ' +
          "a location request's pages (/enter-link, /location-failed, /share) is refused: nothing about a " +
          'recipient is recorded before they consent. Pruned after RETENTION_DAYS.',
        body: visitorReportBody,
        response: { 200: envelope(z.object({ recorded: z.literal(true) })), ...errorResponses },
      },
    },
    async (request) => {
      const report = request.body;
      const page = report.pageUrl === null ? null : webAddress(report.pageUrl);
      if (page && isRecipientPage(page.pathname)) throw new HttpError(400, say('recipientPage'));
      // Another site's path or query may say who the visitor is (a search, a profile): its site is enough.
      const referrer = report.referrerUrl === null ? null : webAddress(report.referrerUrl);
      await insertVisitorReport(app.db, {
        ...report,
        pageUrl: page ? `${page.origin}${page.pathname}` : null,
        referrerUrl: referrer ? `${referrer.origin}/` : null,
        source: report.source !== null && SOURCE_MARKER.test(report.source) ? report.source : null,
        visitTime: new Date(report.visitTime),
      });
      return ok({ recorded: true as const });
    },
  );

  app.get(
    '/api/v1/locate/country',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['visitors'],
        summary: "The caller's country from its IP address (bundled DB-IP Lite database), null when unknown",
        response: {
          200: envelope(
            z.object({
              countryCode: z.string().length(2).nullable(),
              attribution: z.object({ text: z.string(), url: z.string(), license: z.string() }),
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) =>
      ok({ countryCode: app.geo.lookupIp(request.ip)?.countryCode ?? null, attribution: DBIP_ATTRIBUTION }),
  );
};

export default locateRoutes;
