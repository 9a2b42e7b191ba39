import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { paymentsRefusal } from '../billing/payments-configured';
import { failure } from '../lib/envelope';
import { requestLocale } from '../lib/messages';

/**
 * An onRequest hook for the routes that take a payment: refused (billing/payments-configured.ts) before the body is
 * read, so nothing in it (a card number) is parsed, validated or stored.
 */
export function refuseUnconfiguredPayments(app: FastifyInstance, options: { sandboxOnly?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = paymentsRefusal(app.billing, requestLocale(request), options);
    if (!refusal) return undefined;
    // Sent as-is: the error handler hides the message of any 5xx, and this one is meant for the caller.
    return reply.code(refusal.status).send(failure(refusal.status, refusal.message)) as FastifyReply;
  };
}
