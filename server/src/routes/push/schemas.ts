import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';

export const pushKeyResponse = envelope(
  z.object({
    publicKey: z
      .string()
      .describe("The server's VAPID public key (base64url): PushManager.subscribe's applicationServerKey"),
  }),
);

// A push service's address: https only (the browsers' push services all are), and of a sane length.
const endpoint = z
  .url({ protocol: /^https$/, message: inputMessage('push.endpoint') })
  .max(2048, inputMessage('push.endpoint'))
  .describe('PushSubscription.endpoint');

const base64url = (min: number, max: number) =>
  z
    .string({ message: inputMessage('push.keys') })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, inputMessage('push.keys'))
    .min(min, inputMessage('push.keys'))
    .max(max, inputMessage('push.keys'));

export const pushSubscriptionBody = z.object({
  endpoint,
  keys: z
    .object(
      {
        // A P-256 public key, uncompressed (65 bytes: 87 characters), and a 16-byte secret (22), with or without padding.
        p256dh: base64url(86, 90),
        auth: base64url(21, 26),
      },
      { message: inputMessage('push.keys') },
    )
    .describe('PushSubscription.toJSON().keys'),
});

export const pushEndpointBody = z.object({ endpoint });

export const pushSubscribedResponse = envelope(
  z.object({ devices: z.number().int().describe('Browsers with notifications on for this account, this one too') }),
);

export const pushRemovedResponse = envelope(
  z.object({ removed: z.boolean().describe('false: this browser had no subscription for this account') }),
);

export const pushTestResponse = envelope(
  z.object({ devices: z.number().int().describe('Browsers the test notification was queued for') }),
);
