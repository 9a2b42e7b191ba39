import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Locale } from '../auth/users';
import { locationRequests } from '../db/schema';
import { findOwnedRequest, type LocationRequestView } from './location-request-view';
import { publishRequestEvent } from '../live/request-events';
import { isOptedOut, optOutKey } from './opt-outs';
import { claimSendSlot, linkLimitKey, targetLimitKey } from './send-limits';
import { messageLinks, renderMessage, type MessageChannel, type TemplateId } from './templates';

/** 24 random bytes: 192 bits, 32 base64url characters (short enough for an SMS, far beyond guessing). */
export function newRequestToken(): string {
  return randomBytes(24).toString('base64url');
}

export type CreateOutcome =
  { kind: 'created'; request: LocationRequestView } | { kind: 'limited'; nextAllowedAt: Date } | { kind: 'opted-out' };

interface Requester {
  userId: string;
  displayName: string;
}

interface Common {
  requester: Requester;
  locale: Locale;
  baseUrl: string;
  expiryDays: number;
}

function expiresAt(days: number): Date {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000);
}

/**
 * A request by SMS or email: the opt-out check, the per-target send slot, the request, its message in the outbox
 * and the live event, all in one transaction, so a refusal changes nothing and a success is whole.
 */
export async function createMessageRequest(
  app: FastifyInstance,
  input: Common & { channel: MessageChannel; target: string; templateId: TemplateId; note: string },
): Promise<CreateOutcome> {
  const outcome = await app.db.transaction(async (tx): Promise<CreateOutcome> => {
    const { hmacSecret } = app.auth.secrets;
    if (await isOptedOut(tx, hmacSecret, input.target)) return { kind: 'opted-out' };
    const claim = await claimSendSlot(tx, targetLimitKey(input.target));
    if (!claim.allowed) return { kind: 'limited', nextAllowedAt: claim.nextAllowedAt };

    const requestId = randomUUID();
    const token = newRequestToken();
    const expires = expiresAt(input.expiryDays);
    const message = renderMessage({
      channel: input.channel,
      locale: input.locale,
      requesterName: input.requester.displayName,
      note: input.note,
      links: messageLinks(input.baseUrl, input.locale, token),
      expiresAt: expires,
    });
    const idempotencyKey = `location-request:${requestId}`;
    const messageId =
      input.channel === 'sms'
        ? await app.mailer.queueSms(tx, { idempotencyKey, to: input.target, locale: input.locale, text: message.text })
        : await app.mailer.queue(tx, {
            idempotencyKey,
            to: input.target,
            locale: input.locale,
            subject: message.subject ?? '',
            text: message.text,
            html: message.html ?? '',
          });
    if (!messageId) throw new Error('the request message was not queued');
    await tx.insert(locationRequests).values({
      id: requestId,
      userId: input.requester.userId,
      channel: input.channel,
      target: input.target,
      targetHash: optOutKey(hmacSecret, input.target),
      token,
      locale: input.locale,
      templateId: input.templateId,
      note: input.note.trim() || null,
      messageId,
      expiresAt: expires,
    });
    return { kind: 'created', request: await publishCreated(tx, input.requester.userId, requestId, input.baseUrl) };
  });
  if (outcome.kind === 'created') app.mailer.kick();
  return outcome;
}

/** A trackable link the requester shares themselves: one new link per requester every 3 hours. */
export async function createLinkRequest(
  app: FastifyInstance,
  input: Common & { title: string },
): Promise<CreateOutcome> {
  return app.db.transaction(async (tx): Promise<CreateOutcome> => {
    const claim = await claimSendSlot(tx, linkLimitKey(input.requester.userId));
    if (!claim.allowed) return { kind: 'limited', nextAllowedAt: claim.nextAllowedAt };
    const requestId = randomUUID();
    await tx.insert(locationRequests).values({
      id: requestId,
      userId: input.requester.userId,
      channel: 'link',
      title: input.title,
      token: newRequestToken(),
      locale: input.locale,
      expiresAt: expiresAt(input.expiryDays),
    });
    return { kind: 'created', request: await publishCreated(tx, input.requester.userId, requestId, input.baseUrl) };
  });
}

async function publishCreated(
  tx: Parameters<typeof findOwnedRequest>[0],
  userId: string,
  requestId: string,
  baseUrl: string,
): Promise<LocationRequestView> {
  const view = await findOwnedRequest(tx, userId, requestId, baseUrl);
  if (!view) throw new Error('the new request was not found');
  await publishRequestEvent(tx, { userId, requestId, type: 'request', payload: { ...view } });
  return view;
}
