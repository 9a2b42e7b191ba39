import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failure } from '../lib/envelope';
import { requestLocale } from '../lib/messages';
import { sayBilling } from './billing-messages';

/**
 * An onRequest hook for the routes that take a payment: with no processor configured (a deployment without
 * provider keys and without PAYMENTS_SANDBOX) they answer 503 "payments are not configured" before the body is
 * read, so nothing in it (a card number) is parsed, validated or stored. `sandboxOnly`: the sandbox's own route,
 * which refuses in the same way whenever the sandbox is not the processor.
 */
export function refuseUnconfiguredPayments(app: FastifyInstance, options: { sandboxOnly?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const locale = requestLocale(request);
    if (!app.billing.configured) {
      // Sent as-is: the error handler hides the message of any 5xx, and this one is meant for the caller.
      return reply.code(503).send(failure(503, sayBilling('paymentsNotConfigured')[locale])) as FastifyReply;
    }
    if (options.sandboxOnly && !app.billing.sandbox) {
      return reply.code(400).send(failure(400, sayBilling('methodUnavailable')[locale])) as FastifyReply;
    }
    return undefined;
  };
}
