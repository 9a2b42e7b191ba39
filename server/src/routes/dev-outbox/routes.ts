import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../lib/envelope';
import { localOutbox } from '../../messages/local-outbox';
import { escapeHtml } from '../../lib/escape-html';

const outboxMessage = z.object({
  id: z.string(),
  channel: z.enum(['email', 'sms']),
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
});

/**
 * The local outbox: every email and SMS the app sent or would send, newest first, so a reset or a consent link can
 * be completed on a fresh machine with no mail server or SMS provider. JSON by default, an HTML page for
 * browsers. Registered by the dev tools plugin (routes/dev-tools), behind its token.
 */
const devOutboxRoutes: FastifyPluginAsyncZod<{ hide: boolean }> = async (app, options) => {
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

      const items = messages
        .map(
          (message) => `<article>
  <h2>${escapeHtml(message.channel === 'sms' ? 'SMS' : (message.subject ?? '(no subject)'))}</h2>
  <p class="meta">${escapeHtml(message.channel)} to <b>${escapeHtml(message.recipient)}</b> · ${escapeHtml(message.createdAt)} · ${escapeHtml(message.state)}${message.transport ? ` (${escapeHtml(message.transport)})` : ''}</p>
  <pre>${escapeHtml(message.bodyText)}</pre>
</article>`,
        )
        .join('\n');
      // The page is not the JSON envelope: sent as-is, past the response schema.
      return (reply as FastifyReply).type('text/html; charset=utf-8').serializer((payload: unknown) => String(payload))
        .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kabari local outbox</title>
<style>body{font-family:sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ddd;padding:1rem 0}.meta{color:#666}pre{white-space:pre-wrap;background:#f6f6f6;padding:1rem}</style>
</head><body><h1>Local outbox</h1><p>${messages.length} message(s), newest first. Set SMTP_URL (email) and TWILIO_* (SMS) for real delivery.</p>
${items || '<p>No messages yet.</p>'}
</body></html>`);
    },
  );
};

export default devOutboxRoutes;
