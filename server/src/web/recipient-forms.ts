import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../lib/database-unavailable';
import { HttpError } from '../lib/envelope';
import { messagesOf, sayCommon, type Locale } from '../lib/messages';
import { REPORT_REASONS } from '../db/column-values';
import { isInvalidTextError, sayInvalidText } from '../plugins/invalid-text';
import { reporterKey } from '../plugins/reporter-session';
import { tokenParams } from '../routes/share/schemas';
import { consentToShare, declineRequest, optOutOfRequests, reportAbuse } from '../sharing/link-consent';
import type { ShareThrottle } from '../sharing/share-throttle';
import type { RecipientFailure } from './recipient-pages';
import { markSharedHere } from './shared-here';

const say = messagesOf('recipientForms');

/** What the consent page's plain forms send (remote-share's enter-link page): one action and, to report, why. */
const recipientForm = z.object({
  action: z.enum(['share', 'decline', 'opt-out', 'report']),
  reason: z.enum(REPORT_REASONS).optional(),
  details: z.string().max(2000).optional(),
});

interface Options {
  /** Answers with the page as it now is, saying why the form was refused. */
  sendRecipientPage: (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    refused: RecipientFailure,
  ) => Promise<FastifyReply>;
  /** The site's public address (its cookies are Secure over https, and the requester's emails link to it). */
  publicUrl: string;
  /** The link's throttle, the one the JSON routes and the page count in. */
  throttle: ShareThrottle;
}

/** A refusal as the JSON route would answer it (status and text), for the page to say; else a failure of ours. */
export function refusalOf(error: unknown, locale: Locale): { status: number; message: string } {
  if (error instanceof HttpError && error.statusCode < 500) {
    return { status: error.statusCode, message: error.messageIn(locale) };
  }
  if (isInvalidTextError(error)) return { status: 400, message: sayInvalidText('invalidCharacters')[locale] };
  if (isDatabaseUnavailable(error)) return { status: 503, message: sayCommon('unavailable')[locale] };
  return { status: 500, message: sayCommon('serverError')[locale] };
}

/**
 * The consent page's forms sent without the page's script (before it has loaded, or where it never runs): Share
 * (the approximate place; the browser's position needs the script), Decline, opt-out and report. Each calls the
 * same rules as the page's script does through the JSON routes, under the same throttles; the cross-site check has
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
      const given = tokenParams.safeParse({ token: query.get('token') ?? query.get('t') });
      const form = recipientForm.safeParse(request.body);
      if (!given.success || !form.success) {
        return options.sendRecipientPage(request, reply, 400, {
          action: form.success ? form.data.action : 'decline',
          message: say('invalidForm')[locale],
        });
      }
      const link = given.data.token;
      const { action, reason, details } = form.data;
      const notices = { outbox: app.outbox, publicUrl: options.publicUrl };
      try {
        // The recipient's own address: the throttles and the approximate place are theirs.
        await options.throttle.link(request.ip, link);
        if (action === 'share') await consentToShare(app.db, notices, app.geo.lookupIp, link, request.ip);
        else if (action === 'decline') await declineRequest(app.db, notices, link);
        else if (action === 'opt-out') await optOutOfRequests(app.db, app.auth.secrets.hmacSecret, link);
        else {
          // A report is known by its browser's reporter cookie, given with the first one.
          const reporter = reporterKey(request, reply, app.auth.secrets.hmacSecret, options.publicUrl);
          await reportAbuse(app.db, options.throttle, request.ip, link, reporter, {
            reason: reason ?? 'other',
            details: details?.trim() || null,
          });
        }
      } catch (error) {
        const refusal = refusalOf(error, locale);
        // The details stay in the log; the page only says that it failed.
        if (refusal.status >= 500) request.log.error({ err: error }, 'A recipient form failed');
        return options.sendRecipientPage(request, reply, refusal.status, { action, message: refusal.message });
      }
      const next = new URLSearchParams({ token: link });
      if (action === 'opt-out' || action === 'report') next.set('done', action);
      if (action === 'share') {
        // Where the thank-you page's script runs, it goes on to ask the browser for the position.
        next.set('locate', '1');
        // Where it does not, the server names the approximate place to this browser.
        markSharedHere(reply, app.auth.secrets.hmacSecret, link, options.publicUrl);
      }
      const page = action === 'share' ? pagePath.replace('enter-link', 'share') : pagePath;
      return reply.header('cache-control', 'no-store').redirect(`${page}?${next}`, 303);
    });
  }
}
