import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { messagesOf } from '../lib/messages';
import { REPORT_REASONS } from '../db/column-values';
import type { RecipientFailure } from './recipient-pages';
import { markSharedHere } from './shared-here';

const say = messagesOf('recipientForms');

/** What the consent page's plain forms send (remote-share's enter-link page): one action and, to report, why. */
const recipientForm = z.object({
  action: z.enum(['share', 'decline', 'opt-out', 'report']),
  reason: z.enum(REPORT_REASONS).optional(),
  details: z.string().max(2000).optional(),
});

/** The API route each form stands for: the form goes through it, with its schema, throttles and checks. */
const apiActions: Record<RecipientFailure['action'], string> = {
  share: '/consent',
  decline: '/decline',
  'opt-out': '/opt-out',
  report: '/report',
};

interface Options {
  /** Answers with the page as it now is, saying why the form was refused. */
  sendRecipientPage: (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    refused: RecipientFailure,
  ) => Promise<FastifyReply>;
  /** The site's public address (its cookies are Secure over https). */
  publicUrl: string;
}

/**
 * The consent page's forms sent without the page's script (before it has loaded, or where it never runs): Share
 * (the approximate place; the browser's position needs the script), Decline, opt-out and report. Each is the same
 * call as the page's script makes, through the same route (schema, throttles, checks); the cross-site check has
 * already run on this request. The answer is a page in the page's language: the thank-you page after Share, the
 * consent page with the outcome otherwise (after a redirect, so that reloading sends nothing twice), or the page
 * saying why the form was refused.
 */
export async function recipientForms(app: FastifyInstance, options: Options): Promise<void> {
  await app.register(formBody, { bodyLimit: 16 * 1024 });

  for (const pagePath of ['/enter-link', '/id/enter-link']) {
    const locale = pagePath.startsWith('/id/') ? 'id' : 'en';
    app.post(pagePath, { schema: { hide: true } }, async (request, reply) => {
      const query = new URL(request.url, 'http://kabari.invalid').searchParams;
      const token = query.get('token') ?? query.get('t');
      const form = recipientForm.safeParse(request.body);
      if (!token || !form.success) {
        return options.sendRecipientPage(request, reply, 400, {
          action: form.success ? form.data.action : 'decline',
          message: say('invalidForm')[locale],
        });
      }
      const { action, reason, details } = form.data;
      const answer = await app.inject({
        method: 'POST',
        url: `/api/v1/share/links/${encodeURIComponent(token)}${apiActions[action]}`,
        // The recipient's own address: the throttles and the approximate place are theirs.
        remoteAddress: request.ip,
        // The browser's cookies go along and come back: a report is known by its browser's reporter cookie.
        headers: {
          'content-type': 'application/json',
          'accept-language': locale,
          ...(request.headers.cookie ? { cookie: request.headers.cookie } : {}),
        },
        payload: action === 'report' ? { reason: reason ?? 'other', details: details?.trim() || null } : {},
      });
      const cookies = answer.headers['set-cookie'];
      if (cookies) reply.header('set-cookie', cookies);
      if (answer.statusCode !== 200) {
        let message: unknown;
        try {
          message = (answer.json() as { message?: unknown }).message;
        } catch {
          // Not the API's envelope: the page says it in general words.
        }
        return options.sendRecipientPage(request, reply, answer.statusCode, {
          action,
          message: typeof message === 'string' ? message : say('invalidForm')[locale],
        });
      }
      const next = new URLSearchParams({ token });
      if (action === 'opt-out' || action === 'report') next.set('done', action);
      if (action === 'share') {
        // Where the thank-you page's script runs, it goes on to ask the browser for the position.
        next.set('locate', '1');
        // Where it does not, the server names the approximate place to this browser.
        markSharedHere(reply, app.auth.secrets.hmacSecret, token, options.publicUrl);
      }
      const page = action === 'share' ? pagePath.replace('enter-link', 'share') : pagePath;
      return reply.header('cache-control', 'no-store').redirect(`${page}?${next}`, 303);
    });
  }
}
