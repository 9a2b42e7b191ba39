import { z } from 'zod';
import { envelope } from '../../lib/envelope';

export const webhookResponse = envelope(
  z.object({
    received: z.literal(true),
    duplicate: z.boolean().describe('True when this event id was handled before: nothing was done again'),
  }),
);

export const stripeHeaders = z.object({
  'stripe-signature': z.string({ message: 'The Stripe-Signature header is missing' }).min(1).max(2000),
});

/** PayPal's transmission headers; PayPal's verify-webhook-signature API checks them with the event. */
export const paypalHeaders = z.object({
  'paypal-transmission-id': z.string().max(200).optional(),
  'paypal-transmission-time': z.string().max(100).optional(),
  'paypal-transmission-sig': z.string().max(2000).optional(),
  'paypal-cert-url': z.string().max(2000).optional(),
  'paypal-auth-algo': z.string().max(100).optional(),
});

export const twilioStatusResponse = envelope(
  z.object({
    received: z.literal(true),
    recorded: z
      .boolean()
      .describe(
        "True when the receipt moved the message's delivery forward; false for a replay, old news or no message",
      ),
  }),
);

/** Twilio signs every callback: a missing signature is refused (403) like a wrong one, not as bad input. */
export const twilioHeaders = z.object({
  'x-twilio-signature': z.string().max(200).optional(),
});

/** A status callback's form fields (MessageSid, MessageStatus, ErrorCode, …): every one is covered by the signature. */
export const twilioStatusBody = z.record(z.string().max(64), z.string().max(2000));

/**
 * An incoming message's form fields (From, To, Body, MessageSid, AccountSid, OptOutType, …): every one is covered by
 * the signature. A Body is at most 1,600 characters (ten segments); Twilio's other fields are short.
 */
export const twilioIncomingBody = z.record(z.string().max(64), z.string().max(2000));
