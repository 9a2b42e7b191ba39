import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { visitorReports } from '../../db/schema';
import { DBIP_ATTRIBUTION } from '../../geo/ip-location';
import { envelope, errorResponses, ok } from '../../lib/envelope';

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => (value ? value : null));

// Spec §3, visitor device report. Only what the browser says about itself: the IP address is not stored.
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
  pageUrl: text(2048),
  referrerUrl: text(2048),
  source: text(256).describe('The source query parameter of the landing page'),
  visitTime: z.iso.datetime({ offset: true, message: 'visitTime must be an ISO timestamp' }),
});

const locateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/locate/userAgent',
    {
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        tags: ['visitors'],
        summary: "Record a visitor's device report (sent once per visitor and host)",
        body: visitorReportBody,
        response: { 200: envelope(z.object({ recorded: z.literal(true) })), ...errorResponses },
      },
    },
    async (request) => {
      const report = request.body;
      await app.db.insert(visitorReports).values({ ...report, visitTime: new Date(report.visitTime) });
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
