import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DBIP_ATTRIBUTION } from '../../geo/ip-location';
import { errorResponses, ok } from '../../lib/envelope';
import { countryResponse, visitorReportBody, visitorReportResponse } from './schemas';
import { recordVisitorReport } from '../../visitors/visitor-reports';

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
        response: { 200: visitorReportResponse, ...errorResponses },
      },
    },
    async (request) => {
      await recordVisitorReport(app.db, request.body);
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
        response: { 200: countryResponse, ...errorResponses },
      },
    },
    async (request) =>
      ok({ countryCode: app.geo.lookupIp(request.ip)?.countryCode ?? null, attribution: DBIP_ATTRIBUTION }),
  );
};

export default locateRoutes;
