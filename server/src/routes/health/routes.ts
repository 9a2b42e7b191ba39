import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, errorEnvelope, failure, ok } from '../../lib/envelope';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    {
      // Probes poll often; they are not what the rate limit protects against.
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process is up (does not touch the database)',
        response: { 200: envelope(z.object({ uptimeSeconds: z.number() })) },
      },
    },
    async () => ok({ uptimeSeconds: Math.round(process.uptime()) }),
  );

  app.get(
    '/readyz',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers select 1',
        response: { 200: envelope(z.object({ database: z.enum(['pglite', 'postgres']) })), 503: errorEnvelope },
      },
    },
    async (request, reply) => {
      try {
        await app.dbClient.ping();
      } catch (error) {
        request.log.error({ err: error }, 'Readiness check: the database does not answer');
        return reply.code(503).send(failure(503, 'The database is not answering'));
      }
      return ok({ database: app.dbClient.driver });
    },
  );
};

export default healthRoutes;
