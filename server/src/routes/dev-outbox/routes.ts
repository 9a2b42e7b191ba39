import formBody from '@fastify/formbody';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RECEIPT_STATES } from '../../db/column-values';
import { envelope, errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { sayCommon } from '../../lib/messages';
import { localOutbox } from '../../messages/local-outbox';
import {
  recordDeliveryReceipt,
  smsFallbackServices,
  type SmsFallbackSettings,
} from '../../requests/request-deliveries';
import { escapeHtml } from '../../lib/escape-html';
import { simulateStopReply, stopReplyIn } from '../../sharing/reply-opt-out';
import { parseWhatsAppBody } from '../../messages/whatsapp-content';

const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms', 'whatsapp']),
  recipient: z.string(),
  subject: z.string().nullable(),
  bodyText: z.string(),
  replyTo: z.string().nullable(),
  locale: z.string(),
  state: z.string(),
  transport: z.string().nullable(),
  attempts: z.number(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  receipt: z.enum(RECEIPT_STATES).nullable().describe("The provider's latest delivery receipt (SMS, WhatsApp)"),
  receiptErrorCode: z.string().nullable(),
});

// What the page's buttons simulate: Twilio's receipts of an SMS or WhatsApp message handed on (sent), delivered, one
// the phone could not take (its ErrorCode 30003, an unreachable handset); of a WhatsApp message read, or refused
// because the number has no WhatsApp (ErrorCode 63003), which sends its request by SMS instead.
const SIMULATED_RECEIPTS = {
  sent: { state: 'sent', errorCode: null },
  delivered: { state: 'delivered', errorCode: null },
  read: { state: 'read', errorCode: null },
  failed: { state: 'undelivered', errorCode: '30003' },
  'no-whatsapp': { state: 'undelivered', errorCode: '63003' },
} as const;

/** The page's heading of a message: its channel, or an email's subject. */
function headingOf(message: { channel: string; subject: string | null }): string {
  if (message.channel === 'sms') return 'SMS';
  if (message.channel === 'whatsapp') return 'WhatsApp';
  return message.subject ?? '(no subject)';
}

/**
 * A message's text as the page shows it: a WhatsApp message is its approved template's variables, or a reply's free
 * text.
 */
function shownText(message: { channel: string; bodyText: string; locale: string }): string {
  if (message.channel !== 'whatsapp') return message.bodyText;
  try {
    const content = parseWhatsAppBody(message.bodyText);
    if ('reply' in content) return content.reply;
    const lines = Object.entries(content.variables).map(([name, value]) => `{{${name}}} ${value}`);
    return [`Approved template (${message.locale}) with:`, ...lines].join('\n');
  } catch {
    return message.bodyText;
  }
}

/**
 * The local outbox: every email and SMS the app sent or would send, newest first, so a reset or a consent link can
 * be completed on a fresh machine with no mail server or SMS provider. JSON by default, an HTML page for
 * browsers. Registered by the dev tools plugin (routes/dev-tools), behind its token.
 */
const devOutboxRoutes: FastifyPluginAsyncZod<{
  hide: boolean;
  smsDailyBudget: number;
  /** What a simulated "no WhatsApp" needs to send the SMS instead: the site's address, the limits, the operator. */
  fallback: SmsFallbackSettings;
}> = async (app, options) => {
  // The page's buttons are plain forms.
  await app.register(formBody, { bodyLimit: 1024 });
  app.get(
    '/dev/outbox',
    {
      schema: {
        hide: options.hide,
        tags: ['development'],
        summary: 'Messages in the local outbox, newest first (with ?token=, the dev tools token)',
        querystring: z.object({
          token: z.string().optional().describe('The dev tools token (checked before this route runs)'),
          recipient: z
            .string()
            .trim()
            .toLowerCase()
            .optional()
            .describe('Only messages to this address or E.164 number (+62…)'),
          format: z.enum(['json', 'html']).optional().describe('Default: html for browsers, json otherwise'),
          limit: z.coerce.number().int().min(1).max(500).default(100),
        }),
        response: { 200: envelope(z.array(outboxMessage)) },
      },
    },
    async (request, reply) => {
      const { recipient, format, limit } = request.query;
      const messages = await localOutbox(app.db, recipient, limit);
      reply.header('cache-control', 'no-store');
      const wantsHtml = format === 'html' || (format === undefined && request.headers.accept?.includes('text/html'));
      if (!wantsHtml) return ok(messages);

      const token = encodeURIComponent(String(request.query.token ?? ''));
      const receiptForm = (id: string, receipt: keyof typeof SIMULATED_RECEIPTS, label: string) =>
        `<form method="post" action="/dev/outbox/${escapeHtml(id)}/receipt?token=${escapeHtml(token)}">` +
        `<input type="hidden" name="receipt" value="${receipt}"><button type="submit">${label}</button></form>`;
      // The recipient answers with the stop word of the message's language: STOP, or BERHENTI in Indonesian.
      const replyForm = (id: string, locale: string) => {
        const word = stopReplyIn(locale === 'id' ? 'id' : 'en');
        return (
          `<form method="post" action="/dev/outbox/${escapeHtml(id)}/reply?token=${escapeHtml(token)}">` +
          `<input type="hidden" name="text" value="${word}"><button type="submit">Reply “${word}”</button></form>`
        );
      };
      const items = messages
        .map(
          (message) => `<article>
  <h2>${escapeHtml(headingOf(message))}</h2>
  <p class="meta">${escapeHtml(message.channel)} to <b>${escapeHtml(message.recipient)}</b> · ${escapeHtml(message.createdAt)} · ${escapeHtml(message.state)}${message.transport ? ` (${escapeHtml(message.transport)})` : ''}${message.receipt ? ` · receipt: ${escapeHtml(message.receipt)}${message.receiptErrorCode ? ` (${escapeHtml(message.receiptErrorCode)})` : ''}` : ''}</p>
  <pre>${escapeHtml(shownText(message))}</pre>${
    message.channel === 'sms'
      ? `
  <div class="receipts">${receiptForm(message.id, 'sent', 'Simulate “sent”')}${receiptForm(message.id, 'delivered', 'Simulate “delivered”')}${receiptForm(message.id, 'failed', 'Simulate “failed” (phone unreachable)')}${replyForm(message.id, message.locale)}</div>`
      : message.channel === 'whatsapp'
        ? `
  <div class="receipts">${receiptForm(message.id, 'sent', 'Simulate “sent”')}${receiptForm(message.id, 'delivered', 'Simulate “delivered”')}${receiptForm(message.id, 'read', 'Simulate “read”')}${receiptForm(message.id, 'failed', 'Simulate “failed” (phone unreachable)')}${receiptForm(message.id, 'no-whatsapp', 'Simulate “failed” (no WhatsApp: SMS instead)')}${replyForm(message.id, message.locale)}</div>`
        : ''
  }
</article>`,
        )
        .join('\n');
      // The page's buttons post forms to this origin: under the site's no-referrer a browser names their origin
      // "null", which the cross-site check refuses. same-origin names ours, and sends nothing to another site.
      reply.header('referrer-policy', 'same-origin');
      // The page is not the JSON envelope: sent as-is, past the response schema.
      return (reply as FastifyReply).type('text/html; charset=utf-8').serializer((payload: unknown) => String(payload))
        .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kabari local outbox</title>
<style>body{font-family:sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:1rem 0}.meta{color:#666}.receipts{display:flex;gap:.5rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style>
</head><body><h1>Local outbox</h1><p>${messages.length} message(s), newest first. Set SMTP_URL (email) and TWILIO_* (SMS, and TWILIO_WHATSAPP_* for WhatsApp) for real delivery.</p>
${items || '<p>No messages yet.</p>'}
</body></html>`);
    },
  );

  app.post(
    '/dev/outbox/:id/receipt',
    {
      schema: {
        hide: options.hide,
        tags: ['development'],
        summary:
          "Simulates the provider's delivery receipt of an SMS or WhatsApp message (sent, delivered, read; failed: the " +
          'phone unreachable; no-whatsapp: the number has no WhatsApp, so the request goes by SMS instead)',
        description:
          'Recorded by the same rule as a Twilio status callback (without its signature check): stored only when it ' +
          "moves the delivery forward, and published to the requester's live stream when it changes their view. " +
          'A form from the outbox page is sent back to the page (303); a JSON call is answered in JSON.',
        params: z.object({ id: z.uuid() }),
        querystring: z.object({ token: z.string().optional() }),
        body: z.object({ receipt: z.enum(['sent', 'delivered', 'read', 'failed', 'no-whatsapp']) }),
        response: {
          200: envelope(z.object({ recorded: z.boolean() })),
          404: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const simulated = SIMULATED_RECEIPTS[request.body.receipt];
      const fallback = smsFallbackServices(options.fallback, app.outbox, app.auth.secrets.hmacSecret);
      const outcome = await recordDeliveryReceipt(
        app.db,
        { message: { id: request.params.id }, ...simulated },
        fallback,
      );
      if (outcome.kind === 'unknown') {
        throw messageNotFound(request);
      }
      if (isOutboxPageForm(request)) return backToOutboxPage(request, reply as FastifyReply);
      return ok({ recorded: outcome.kind === 'recorded' });
    },
  );

  app.post(
    '/dev/outbox/:id/reply',
    {
      schema: {
        hide: options.hide,
        tags: ['development'],
        summary: "Simulates the recipient's reply to an SMS or WhatsApp message (Reply “STOP”: an opt-out by reply)",
        description:
          'Goes through the same rule as a reply Twilio posts to /api/v1/webhooks/twilio/inbound (without its ' +
          'signature check; a WhatsApp message is answered from whatsapp:+…): a stop word opts the number out of every ' +
          'future request and queues one confirmation on the same channel; ' +
          'any other text changes nothing. Without a text, the stop word of the message’s language (STOP, or ' +
          'BERHENTI in Indonesian). A form from the outbox page is sent back to the page (303); a JSON call is ' +
          'answered in JSON.',
        params: z.object({ id: z.uuid() }),
        querystring: z.object({ token: z.string().optional() }),
        body: z.object({ text: z.string().max(1600).optional() }),
        response: {
          200: envelope(
            z.object({ outcome: z.enum(['opted-out', 'already-opted-out', 'not-a-stop-word', 'unknown-number']) }),
          ),
          404: errorEnvelope,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const deps = {
        db: app.db,
        outbox: app.outbox,
        hmacSecret: app.auth.secrets.hmacSecret,
        smsDailyBudget: options.smsDailyBudget,
      };
      const outcome = await simulateStopReply(deps, request.params.id, request.body.text);
      if (!outcome) {
        throw messageNotFound(request);
      }
      if (isOutboxPageForm(request)) return backToOutboxPage(request, reply as FastifyReply);
      return ok({ outcome });
    },
  );
};

export default devOutboxRoutes;

/** 404 for a message id the outbox does not hold. */
function messageNotFound(request: { method: string; url: string }): HttpError {
  return new HttpError(
    404,
    sayCommon('notFound', { method: request.method, path: request.url.split('?', 1)[0] ?? '' }),
  );
}

/** A button of the outbox page posts a form; a JSON call is answered in JSON. */
function isOutboxPageForm(request: { headers: { 'content-type'?: string } }): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
}

/** Back to the outbox page the form came from (303), with its token. */
function backToOutboxPage(request: { query: { token?: string } }, reply: FastifyReply): FastifyReply {
  const token = encodeURIComponent(request.query.token ?? '');
  return reply.redirect(`/dev/outbox?token=${token}&format=html`, 303);
}
