import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAttempt, throttleKey, type ThrottleRule } from '../../auth/throttle';
import type { Config } from '../../config';
import { errorResponses, ok } from '../../lib/envelope';
import { contactMessageBody, contactMessageResponse, sayContact } from './schemas';
import { sendContactMessage } from './service';
import { throwWhenLimited } from '../../lib/throttle-answer';

// Generous enough for people behind one carrier-grade NAT (common on Indonesian mobile networks), tight enough
// that the form cannot be used to flood the operator's mailbox. Counted in the database: it holds across instances.
export const CONTACT_PER_IP: ThrottleRule = { limit: 10, windowSeconds: 60 * 60 };

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
      const limit = await countAttempt(
        app.db,
        throttleKey(app.auth.secrets.hmacSecret, 'contact:ip', request.ip),
        CONTACT_PER_IP,
      );
      throwWhenLimited(limit, sayContact, 'tooManyMessages');
      await sendContactMessage(app, request.body, operatorEmail);
      return ok({ received: true as const });
    },
  );
};

export default contactRoutes;
