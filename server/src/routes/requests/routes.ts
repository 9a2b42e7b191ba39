import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countAttempt, type ThrottleRule } from '../../auth/throttle';
import { unsendableNameProblem } from '../../auth/display-name';
import { knownText, requestLocale, sayCommon, type Locale, type LocalizedText } from '../../lib/messages';
import { hoursText, sayRequests, sayRequestsIn } from '../../requests/request-messages';
import type { Config } from '../../config';
import type { Database, DatabaseExecutor } from '../../db/open-database';
import { errorEnvelope, errorResponses, HttpError, ok } from '../../lib/envelope';
import { cancelOwnedRequest, deleteOwnedRequest } from '../../requests/cancel-request';
import { createMessageRequest, type CreateOutcome, type LimitRule } from '../../requests/create-request';
import { accountDayKey, dailyLimitReached, nextSendDay, SMS_BUDGET_KEY } from '../../requests/daily-send-counts';
import { listOwnedRequests, type LinkUrlSource } from '../../requests/location-request-view';
import { canReceiveSms, numberFacts, parseNumber } from '../../requests/number-facts';
import { isOptedOut } from '../../requests/opt-outs';
import type { SendLimitsConfig } from '../../requests/requests-config';
import { linkTokenKey, sealLegacyLinkTokens } from '../../requests/request-tokens';
import { smsCountryRefusal } from '../../requests/sms-countries';
import { linkLimitKey, nextAllowedAt, rehashLegacyTargetKeys, targetLimitKey } from '../../requests/send-limits';
import { hasLiveSubscription } from '../../requests/subscriber-access';
import {
  listTemplates,
  messageLinks,
  NOTE_MAX_LENGTH,
  noteProblem,
  PREVIEW_TOKEN,
  renderMessage,
  type MessageChannel,
} from '../../requests/templates';
import { emailField } from '../auth/schemas';
import {
  cancelResponse,
  emailBody,
  limitedResponse,
  limitQuery,
  limitResponse,
  listQuery,
  listResponse,
  previewBody,
  previewResponse,
  requestIdParams,
  requestResponse,
  smsBody,
  successResponse,
  templatesQuery,
  templatesResponse,
} from './schemas';
import { throwWhenLimited } from '../../lib/throttle-answer';

const signedInResponses = { ...errorResponses, 401: errorEnvelope };

/**
 * Asking the limit of a number or address says whether it opted out and whether someone messaged it lately:
 * a subscriber opening the send step asks once per target, so this per-user budget (in the database, so it holds
 * across instances) is generous for that and stops walking through numbers.
 */
export const TARGET_LIMIT_CHECKS: ThrottleRule = { limit: 60, windowSeconds: 60 * 60 };
const sendResponses = { ...signedInResponses, 403: errorEnvelope, 409: errorEnvelope, 429: limitedResponse };

/** The schema of POST /api/v1/requests/{id}/cancel and of its alias POST /api/v1/links/{id}/cancel. */
export const cancelSchema = {
  tags: ['requests'],
  security: [{ token: [] }],
  params: requestIdParams,
  response: { 200: cancelResponse, ...signedInResponses, 404: errorEnvelope },
};

/** Their answer: the owner's request cancelled (or unchanged, when it had ended); anyone else's 404. */
export async function answerCancel(
  db: Database,
  links: LinkUrlSource,
  request: FastifyRequest<{ Params: { id: string } }>,
) {
  const outcome = await cancelOwnedRequest(db, request.session!.user.id, request.params.id, links);
  if (!outcome) throw new HttpError(404, sayCommon('requestNotFound'));
  return ok(outcome);
}

/** Only subscribers whose subscription runs may send: 403, which the client shows as the expired state. */
export async function requireSubscriber(db: DatabaseExecutor, request: FastifyRequest): Promise<void> {
  if (!(await hasLiveSubscription(db, request.session!.user.id))) {
    throw new HttpError(403, sayRequests('subscriptionNeeded'));
  }
}

/** What a limit says when it refuses a send, in both languages. */
function limitText(
  rule: LimitRule,
  what: 'number' | 'email' | 'link',
  seconds: number,
  limits: SendLimitsConfig | undefined,
): LocalizedText {
  const until = (locale: Locale) => hoursText(seconds, locale);
  switch (rule) {
    case 'link':
      return sayRequests('linkLimited', { wait: seconds });
    case 'target':
      return sayRequests(what === 'number' ? 'numberLimited' : 'emailLimited', { wait: seconds });
    case 'account-day': {
      const limit = what === 'number' ? limits?.smsPerAccountPerDay : limits?.emailPerAccountPerDay;
      return sayRequestsIn(what === 'number' ? 'smsPerDay' : 'emailPerDay', (locale) => ({
        limit: limit ?? 0,
        until: until(locale),
      }));
    }
    case 'sms-budget':
      return sayRequestsIn('smsBudget', (locale) => ({ until: until(locale) }));
  }
}

/**
 * The answer to a send: the request, or a limit's refusal (429 with its time and which limit it was), or the
 * opt-out refusal.
 */
export function sendAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: CreateOutcome,
  what: 'number' | 'email' | 'link',
  limits?: SendLimitsConfig,
) {
  if (outcome.kind === 'opted-out') {
    throw new HttpError(409, sayRequests(what === 'number' ? 'numberOptedOut' : 'emailOptedOut'));
  }
  if (outcome.kind === 'limited') {
    const seconds = Math.max(1, Math.ceil((outcome.nextAllowedAt.getTime() - Date.now()) / 1000));
    return reply
      .code(429)
      .header('retry-after', String(seconds))
      .send({
        status: 429,
        message: limitText(outcome.rule, what, seconds, limits)[requestLocale(request)],
        data: { nextAllowedAt: outcome.nextAllowedAt.toISOString(), rule: outcome.rule },
      });
  }
  return ok({ request: outcome.request });
}

/** A stored display name that cannot go into a message (one saved before the name rule): 400, saying how to fix. */
function checkRequesterName(displayName: string): void {
  const problem = unsendableNameProblem(displayName);
  if (problem) throw new HttpError(400, problem);
}

/** A number an SMS can reach (E.164, and its country), or a 400 with the form's own message. */
export async function smsTarget(
  number: string | undefined,
  country: string | undefined,
): Promise<{ e164: string; countryCode: string | null }> {
  const parsed = parseNumber(number, country);
  if (parsed.kind === 'empty') throw new HttpError(400, sayCommon('enterNumber'));
  if (parsed.kind === 'unparseable') throw new HttpError(400, sayCommon('enterValidMobile'));
  const facts = await numberFacts(parsed.phone, 'en');
  if (!canReceiveSms(facts)) throw new HttpError(400, sayCommon('enterValidMobile'));
  return { e164: facts.e164, countryCode: facts.countryCode };
}

function checkNote(channel: MessageChannel, note: string): string {
  const problem = noteProblem(channel, note);
  if (problem) throw new HttpError(400, problem);
  return note.trim();
}

/** Location requests by SMS and email, their history, and the limits. Every route is owner-checked. */
const requestRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { config } = options;
  const expiryDays = config.requests.linkExpiryDays;
  const limits = config.requests.sendLimits;
  const security = [{ token: [] }];
  const links: LinkUrlSource = {
    baseUrl: config.publicUrl,
    tokenKey: linkTokenKey(app.auth.secrets.hmacSecret),
  };

  // 3-hour slots stored under a raw number or address before the keys were hashed move to their hash; links'
  // tokens stored in the clear before tokens were hashed are sealed.
  app.addHook('onReady', async () => {
    const moved = await rehashLegacyTargetKeys(app.db, app.auth.secrets.hmacSecret);
    if (moved > 0) app.log.info({ moved }, 'Send limits stored under raw targets moved to keyed hashes');
    const sealed = await sealLegacyLinkTokens(app.db, app.auth.secrets.hmacSecret);
    if (sealed > 0) app.log.info({ sealed }, 'Link tokens stored in the clear were sealed');
  });

  /** What would refuse a send to this target today besides its 3-hour slot, said up front; null when nothing. */
  async function dailyRefusal(userId: string, channel: MessageChannel, countryCode: string | null) {
    if (channel === 'sms') {
      const country = smsCountryRefusal(limits, countryCode);
      if (country) return { rule: 'country' as const, texts: country, nextAllowedAt: null };
    }
    const seconds = Math.max(1, Math.ceil((nextSendDay().getTime() - Date.now()) / 1000));
    const what = channel === 'sms' ? 'number' : 'email';
    const perAccount = channel === 'sms' ? limits.smsPerAccountPerDay : limits.emailPerAccountPerDay;
    let rule: 'account-day' | 'sms-budget' | null = null;
    if (await dailyLimitReached(app.db, accountDayKey(channel, userId), perAccount)) rule = 'account-day';
    else if (channel === 'sms' && (await dailyLimitReached(app.db, SMS_BUDGET_KEY, limits.smsDailyBudget))) {
      rule = 'sms-budget';
    }
    if (!rule) return null;
    return { rule, texts: limitText(rule, what, seconds, limits), nextAllowedAt: nextSendDay().toISOString() };
  }

  app.get(
    '/api/v1/requests/templates',
    {
      schema: {
        tags: ['requests'],
        summary: 'The predefined message templates of a channel, in a language',
        description: 'The fixed part of every template names the requester and carries the consent and opt-out links.',
        querystring: templatesQuery,
        response: { 200: templatesResponse, ...errorResponses },
      },
    },
    async (request) =>
      ok({
        items: listTemplates(request.query.channel, request.query.locale),
        noteMaxLength: NOTE_MAX_LENGTH[request.query.channel],
      }),
  );

  app.post(
    '/api/v1/requests/preview',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'The exact message a request would send (the link token shows as …)',
        security,
        body: previewBody,
        response: { 200: previewResponse, ...signedInResponses },
      },
    },
    async (request) => {
      const { channel, note, locale } = request.body;
      checkRequesterName(request.session!.user.displayName);
      const message = renderMessage({
        channel,
        locale,
        requesterName: request.session!.user.displayName,
        note: checkNote(channel, note),
        links: messageLinks(config.publicUrl, locale, PREVIEW_TOKEN),
        expiresAt: new Date(Date.now() + expiryDays * 24 * 60 * 60 * 1000),
      });
      return ok(message.subject ? { subject: message.subject, text: message.text } : { text: message.text });
    },
  );

  app.get(
    '/api/v1/requests/limit',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'When the next request to a target (or the next link) is possible, and whether the target opted out',
        description:
          'For a number or an email address: subscribers only (403, like sending), and at most ' +
          `${TARGET_LIMIT_CHECKS.limit} such checks an hour per account (429 with Retry-After). ` +
          "The link limit is the caller's own and needs neither.",
        security,
        querystring: limitQuery,
        response: { 200: limitResponse, ...signedInResponses, 403: errorEnvelope, 429: errorEnvelope },
      },
    },
    async (request) => {
      const { channel, number, country, email } = request.query;
      const userId = request.session!.user.id;
      if (channel === 'link') {
        const next = await nextAllowedAt(app.db, linkLimitKey(userId));
        return ok({ nextAllowedAt: next?.toISOString() ?? null, optedOut: false, linkExpiryDays: expiryDays });
      }
      // What this tells about someone else's number or address is for those who may message it, in small doses.
      await requireSubscriber(app.db, request);
      const checks = await countAttempt(app.db, `request-limit-check:${userId}`, TARGET_LIMIT_CHECKS);
      throwWhenLimited(checks, sayCommon, 'tooManyRequests');
      let target: string;
      let countryCode: string | null = null;
      if (channel === 'sms') ({ e164: target, countryCode } = await smsTarget(number, country));
      else {
        const parsed = emailField.safeParse(email ?? '');
        if (!parsed.success) {
          const problem = parsed.error.issues[0]?.message;
          throw new HttpError(400, (problem && knownText(problem)) || sayCommon('enterValidEmail'));
        }
        target = parsed.data;
      }
      const [next, optedOut, refusal] = await Promise.all([
        nextAllowedAt(app.db, targetLimitKey(app.auth.secrets.hmacSecret, target)),
        isOptedOut(app.db, app.auth.secrets.hmacSecret, target),
        dailyRefusal(userId, channel, countryCode),
      ]);
      return ok({
        nextAllowedAt: next?.toISOString() ?? null,
        optedOut,
        ...(refusal
          ? {
              refusal: {
                rule: refusal.rule,
                message: refusal.texts[requestLocale(request)],
                nextAllowedAt: refusal.nextAllowedAt,
              },
            }
          : {}),
      });
    },
  );

  app.post(
    '/api/v1/requests/sms',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Send a location request by SMS (subscribers only)',
        description:
          'One SMS or email to the same target every 3 hours, whoever sends it (429 with data.nextAllowedAt, ' +
          'data.rule target). Each account sends at most SMS_PER_ACCOUNT_PER_DAY SMS a day (UTC; rule ' +
          'account-day), and all accounts together at most SMS_DAILY_BUDGET (rule sms-budget; the operator is ' +
          'emailed once that day). Only numbers of the SMS_COUNTRIES get an SMS (400 otherwise). A number that ' +
          'opted out is never messaged (409). 400 when the note holds a link, or when the display name cannot ' +
          'appear in a message. 403 when the subscription has expired.',
        security,
        body: smsBody,
        response: { 200: requestResponse, ...sendResponses },
      },
    },
    async (request, reply) => {
      await requireSubscriber(app.db, request);
      const { number, country, templateId, note, locale } = request.body;
      const { e164: target, countryCode } = await smsTarget(number, country);
      const notThere = smsCountryRefusal(limits, countryCode);
      if (notThere) throw new HttpError(400, notThere);
      const user = request.session!.user;
      checkRequesterName(user.displayName);
      const outcome = await createMessageRequest(app, {
        channel: 'sms',
        target,
        templateId,
        note: checkNote('sms', note),
        locale,
        requester: { userId: user.id, displayName: user.displayName },
        baseUrl: config.publicUrl,
        expiryDays,
        limits,
        operatorEmail: config.operatorEmail,
      });
      return sendAnswer(request, reply, outcome, 'number', limits);
    },
  );

  app.post(
    '/api/v1/requests/email',
    {
      preHandler: app.auth.requireSession,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['requests'],
        summary: 'Send a location request by email (subscribers only)',
        description:
          'The same limits and refusals as the SMS request; the daily limit is EMAIL_PER_ACCOUNT_PER_DAY, and ' +
          'there is no budget or country list for email.',
        security,
        body: emailBody,
        response: { 200: requestResponse, ...sendResponses },
      },
    },
    async (request, reply) => {
      await requireSubscriber(app.db, request);
      const { email, templateId, note, locale } = request.body;
      const user = request.session!.user;
      checkRequesterName(user.displayName);
      const outcome = await createMessageRequest(app, {
        channel: 'email',
        target: email,
        templateId,
        note: checkNote('email', note),
        locale,
        requester: { userId: user.id, displayName: user.displayName },
        baseUrl: config.publicUrl,
        expiryDays,
        limits,
        operatorEmail: config.operatorEmail,
      });
      return sendAnswer(request, reply, outcome, 'email', limits);
    },
  );

  app.get(
    '/api/v1/requests',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: "The signed-in user's requests, newest first, with delivery state and last position",
        security,
        querystring: listQuery,
        response: { 200: listResponse, ...signedInResponses },
      },
    },
    async (request) => {
      const { page, pageSize } = request.query;
      const { items, total } = await listOwnedRequests(app.db, request.session!.user.id, page, pageSize, links);
      return ok({ items, total, page, pageSize });
    },
  );

  app.post(
    '/api/v1/requests/:id/cancel',
    {
      preHandler: app.auth.requireSession,
      schema: {
        ...cancelSchema,
        summary: 'Cancel one of your requests (SMS, email or link): its link stops working and any sharing ends',
        description:
          'Only a request not yet answered, sharing, or stopped can be cancelled; one already declined, withdrawn ' +
          "or cancelled is answered unchanged with cancelled: false. Another user's request answers 404.",
      },
    },
    async (request) => answerCancel(app.db, links, request),
  );

  app.delete(
    '/api/v1/requests/:id',
    {
      preHandler: app.auth.requireSession,
      schema: {
        tags: ['requests'],
        summary: 'Delete one of your requests with its positions and events',
        security,
        params: requestIdParams,
        response: { 200: successResponse, ...signedInResponses, 404: errorEnvelope },
      },
    },
    async (request) => {
      // Another user's request answers exactly like one that does not exist.
      if (!(await deleteOwnedRequest(app.db, request.session!.user.id, request.params.id))) {
        throw new HttpError(404, sayCommon('requestNotFound'));
      }
      return ok({ success: true as const });
    },
  );
};

export default requestRoutes;
