import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorResponses, ok } from '../../lib/envelope';
import { CONTACT_PER_IP, sendContactMessage } from '../../visitors/contact-form';
import { contactMessageBody, contactMessageResponse } from './schemas';

/** The public contact form (/contact-us): stored for the operator and emailed to OPERATOR_EMAIL through the outbox. */
const contactRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { operatorEmail } = options.config;

  app.post(
    '/api/v1/contact/messages',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the operator through the contact form',
        description:
          `Stored, and emailed to the operator with Reply-To set to the sender. At most ${CONTACT_PER_IP.limit} ` +
          'messages per hour from one network address (429 with Retry-After beyond that). No IP address is stored.',
        body: contactMessageBody,
        response: { 200: contactMessageResponse, ...errorResponses },
      },
    },
    async (request) => {
      const deps = { db: app.db, outbox: app.outbox, hmacSecret: app.auth.secrets.hmacSecret };
      await sendContactMessage(deps, request.ip, request.body, operatorEmail);
      return ok({ received: true as const });
    },
  );
};

export default contactRoutes;
