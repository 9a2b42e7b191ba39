import formBody from '@fastify/formbody';
import { QUICK_EXIT_URL } from '@kabari/rules/quick-exit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { REPORT_REASONS } from '../db/column-values';
import { HttpError } from '../lib/envelope';
import { inputMessageText, messagesOf, type Locale } from '../lib/messages';
import { clearOverviewSession, overviewSessionOf, setOverviewSession } from '../plugins/overview-session';
import { reporterKey } from '../plugins/reporter-session';
import { codeBody, sessionBody } from '../routes/my-requests/schemas';
import {
  actOnRequest,
  consentOverview,
  endOverviewSession,
  eraseEverything,
  noMoreRequests,
  openOverviewSession,
  reportRequest,
  sendOverviewCode,
  stopEverything,
  type OverviewDeps,
} from '../sharing/consent-overview';
import { refusalOf } from './recipient-forms';
import type { OverviewPageView } from './recipient-pages';

const say = messagesOf('recipientForms');

/**
 * What the overview page's plain forms send (remote-share's my-requests page): one action, and what it needs. The
 * address and the code are checked again by the JSON routes' own schemas below, for the same words.
 */
const overviewForm = z.discriminatedUnion('action', [
  z.object({ action: z.literal('send-code'), address: z.string().max(1000) }),
  z.object({ action: z.literal('enter-code'), address: z.string().max(1000), code: z.string().max(100) }),
  z.object({ action: z.enum(['decline', 'stop', 'withdraw']), request: z.uuid() }),
  z.object({ action: z.literal('report'), request: z.uuid(), reason: z.enum(REPORT_REASONS) }),
  z.object({ action: z.enum(['stop-everything', 'erase-everything', 'opt-out']) }),
]);

type Done = Exclude<z.output<typeof overviewForm>['action'], 'send-code' | 'enter-code'>;

/** Answers with the overview page rendered for this view, with the given status. */
export type SendOverviewPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  view: OverviewPageView,
) => Promise<FastifyReply>;

interface Options {
  deps: OverviewDeps;
  sendOverviewPage: SendOverviewPage;
  /** The site's public address (the session cookie is Secure over https). */
  publicUrl: string;
}

/** A zod refusal of the JSON routes' schemas in the page's language (their messages are texts' keys). */
function inputRefusal(error: z.ZodError, locale: Locale): string {
  const first = error.issues[0]?.message;
  return (first && inputMessageText(first)?.[locale]) ?? say('invalidForm')[locale];
}

/**
 * What /my-requests shows this browser now: the list while its session cookie holds a live session, else the
 * address to prove. A session that ended is simply the address step again; another failure is said over it.
 */
export async function currentOverviewView(
  deps: OverviewDeps,
  token: string | undefined,
  locale: Locale,
  log: FastifyBaseLogger,
): Promise<OverviewPageView> {
  if (!token) return { step: 'address' };
  try {
    return { step: 'list', overview: await consentOverview(deps, token) };
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 401) return { step: 'address' };
    const refusal = refusalOf(error, locale);
    if (refusal.status >= 500) log.error({ err: error }, 'The consent overview could not be read');
    return { step: 'address', error: refusal.message };
  }
}

/**
 * The overview's forms sent without the page's script (before it has loaded, or where it never runs): the address
 * (a code is sent, and the code step is the answer, the same whether or not anything was sent there before), the
 * code (the session's cookie, then the list), each request's Decline, Stop sharing, Stop and erase and report, and
 * Stop everything, Erase everything and No more requests. Each calls the same rules as the JSON routes, which hold
 * their throttles; the cross-site check has already run on this request. A refusal answers the page with the
 * server's words in the page's language; a change is answered with a redirect (303), so that reloading sends
 * nothing twice. Quick exit is a plain link here: it ends the session, clears the cookie and leaves for the neutral
 * page.
 */
export async function overviewForms(app: FastifyInstance, options: Options): Promise<void> {
  const { deps, sendOverviewPage, publicUrl } = options;
  await app.register(formBody, { bodyLimit: 16 * 1024 });

  for (const pagePath of ['/my-requests', '/id/my-requests']) {
    const locale: Locale = pagePath.startsWith('/id/') ? 'id' : 'en';

    /** The page as it now is, saying why the form was refused. */
    const refused = async (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
      const view = await currentOverviewView(deps, overviewSessionOf(request), locale, request.log);
      if (view.step === 'address' && status === 401) clearOverviewSession(reply, publicUrl);
      return sendOverviewPage(request, reply, status, { ...view, error: message });
    };

    app.post(pagePath, { schema: { hide: true } }, async (request, reply) => {
      const form = overviewForm.safeParse(request.body);
      if (!form.success) return refused(request, reply, 400, say('invalidForm')[locale]);
      const sent = form.data;

      if (sent.action === 'send-code') {
        const ask = codeBody.safeParse({ address: sent.address, locale });
        if (!ask.success) {
          return sendOverviewPage(request, reply, 400, {
            step: 'address',
            address: sent.address,
            error: inputRefusal(ask.error, locale),
          });
        }
        try {
          await sendOverviewCode(deps, request.ip, ask.data);
        } catch (error) {
          const refusal = refusalOf(error, locale);
          if (refusal.status >= 500) request.log.error({ err: error }, 'An overview form failed');
          return sendOverviewPage(request, reply, refusal.status, {
            step: 'address',
            address: ask.data.address,
            error: refusal.message,
          });
        }
        // Not a redirect: the address would have to travel in the next address, which may be logged or kept.
        return sendOverviewPage(request, reply, 200, { step: 'code', address: ask.data.address });
      }

      if (sent.action === 'enter-code') {
        const check = sessionBody.safeParse({ address: sent.address, code: sent.code });
        if (!check.success) {
          return sendOverviewPage(request, reply, 400, {
            step: 'code',
            address: sent.address.trim(),
            error: inputRefusal(check.error, locale),
          });
        }
        let opened;
        try {
          opened = await openOverviewSession(deps, request.ip, check.data);
        } catch (error) {
          const refusal = refusalOf(error, locale);
          if (refusal.status >= 500) request.log.error({ err: error }, 'An overview form failed');
          return sendOverviewPage(request, reply, refusal.status, {
            step: 'code',
            address: check.data.address,
            error: refusal.message,
          });
        }
        setOverviewSession(reply, publicUrl, opened.token, opened.expiresAt);
        return reply.header('cache-control', 'no-store').redirect(pagePath, 303);
      }

      const token = overviewSessionOf(request);
      const done = new URLSearchParams({ done: sent.action satisfies Done });
      try {
        if (sent.action === 'report') {
          // As on the link: one report per link and browser, known by the browser's reporter cookie.
          const reporter = reporterKey(request, reply, deps.hmacSecret, publicUrl);
          const report = { reason: sent.reason, details: null, ip: request.ip, reporterKey: reporter };
          await reportRequest(deps, token, sent.request, report);
        } else if (sent.action === 'stop-everything' || sent.action === 'erase-everything') {
          const counts =
            sent.action === 'stop-everything' ? await stopEverything(deps, token) : await eraseEverything(deps, token);
          done.set('ended', String(counts.ended));
          done.set('declined', String(counts.declined));
        } else if ('request' in sent) {
          await actOnRequest(deps, token, sent.request, sent.action);
        } else {
          await noMoreRequests(deps, token);
        }
      } catch (error) {
        const refusal = refusalOf(error, locale);
        if (refusal.status >= 500) request.log.error({ err: error }, 'An overview form failed');
        return refused(request, reply, refusal.status, refusal.message);
      }
      return reply.header('cache-control', 'no-store').redirect(`${pagePath}?${done}`, 303);
    });

    // A link, so that it works before (or without) the page's script and leaves at once. Not a change anyone else
    // can make: the cookie is SameSite=Strict, so only a page of this site reaches here with the session.
    app.get(`${pagePath}/exit`, { schema: { hide: true } }, async (request, reply) => {
      try {
        await endOverviewSession(deps, overviewSessionOf(request));
      } catch (error) {
        // Leaving comes first; the session still ends by itself within its 15 minutes.
        request.log.error({ err: error }, 'Quick exit could not end the overview session');
      }
      clearOverviewSession(reply, publicUrl);
      return reply.header('cache-control', 'no-store').redirect(QUICK_EXIT_URL, 303);
    });
  }
}
