import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:https';
import type { IncomingMessage } from 'node:http';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { isDatabaseUnavailable } from './lib/database-unavailable';
import { failure, HttpError } from './lib/envelope';
import { inputMessageText, requestLocale, sayCommon, type Locale } from './lib/messages';
import { clientNetwork, loggableUrl, RequestLog, requestLoggerFactory } from './lib/request-log';
import { trustedProxies } from './lib/trusted-proxies';
import { responseSerializerCompiler } from './lib/response-serializer';
import type { TwilioApiBaseUrl } from './messages/twilio-sms';
import geoPlugin from './plugins/geo';
import batchedAnswersPlugin from './plugins/batched-answers';
import billingPlugin from './plugins/billing';
import authPlugin from './plugins/auth';
import crossSitePlugin from './plugins/cross-site';
import databasePlugin from './plugins/database';
import schedulerPlugin from './plugins/scheduler';
import messageOutboxPlugin, { type DeliveryTiming } from './plugins/message-outbox';
import helmetPlugin from './plugins/helmet';
import invalidTextPlugin, { isInvalidTextError, sayInvalidText } from './plugins/invalid-text';
import liveEventsPlugin from './plugins/live-events';
import operatorGuard from './plugins/operator-guard';
import rateLimitPlugin from './plugins/rate-limit';
import swaggerPlugin from './plugins/swagger';
import authRoutes from './routes/auth/routes';
import contactRoutes from './routes/contact/routes';
import devToolsRoutes from './routes/dev-tools/routes';
import healthRoutes from './routes/health/routes';
import liveEventsRoutes from './routes/live-events/routes';
import locateRoutes from './routes/locate/routes';
import registrationRoutes from './routes/registration/routes';
import subscriptionRoutes from './routes/subscription/routes';
import accountRoutes from './routes/account/routes';
import type { ExportLimits } from './accounts/export-archive';
import refundRoutes from './routes/refunds/routes';
import webhookRoutes from './routes/webhooks/routes';
import positionsRoutes from './routes/positions/routes';
import mapViewRoutes from './routes/map-views/routes';
import operatorAuthRoutes from './routes/operator-auth/routes';
import myRequestsRoutes from './routes/my-requests/routes';
import pushRoutes from './routes/push/routes';
import linkRoutes from './routes/links/routes';
import numberRoutes from './routes/numbers/routes';
import operatorDeskRoutes from './routes/operator-desk/routes';
import requestRoutes from './routes/requests/routes';
import runtimeConfigRoutes from './routes/runtime-config/routes';
import shareRoutes from './routes/share/routes';
import voiceNoteRoutes from './routes/voice-notes/routes';
import retentionJob from './plugins/retention';
import liveEndingsJob from './plugins/live-endings';
import type * as ServeWeb from './web/serve-web';

export interface BuildAppOptions {
  /** Overrides the logger built from the config (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Tests: the address of a local fake of Twilio's API, where the SDK sends instead of Twilio. */
  twilioApiBaseUrl?: TwilioApiBaseUrl;
  /** Shorter delivery timeouts and claim renewals (tests). */
  outboxTiming?: Partial<DeliveryTiming>;
  /** The HTTPS agent push messages go through (tests: a local push service with its own certificate). */
  pushAgent?: Agent;
  /** Tests: push services on this machine (their own) may be sent to, whatever the configuration. */
  pushAllowLoopback?: boolean;
  /** Tests: every answer is checked against its schema before it is written; one that does not match fails. */
  checkAnswers?: boolean;
  /** A shorter deadline for the data export (tests). */
  exportLimits?: Partial<ExportLimits>;
}

// Secrets never reach the logs, wherever a serializer or a handler puts them.
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.verificationCode',
  '*.authCode',
  '*.code',
  '*.token',
  '*.cardNumber',
  '*.cvv',
  // Sandbox card details (registerAndSign/v5pay, subscribe/renew), wherever a log line might carry them.
  '*.card',
  'card',
];

export function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // Fastify's own, less what a log must not keep: no query string or share token, no full client address.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: clientNetwork(request.ip),
      }),
    },
  };
}

// A caller's request id is kept (so logs correlate across services) only when it is a plain short token.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

function validationMessage(
  error: FastifyError & { validation: { instancePath: string; message?: string }[] },
  locale: Locale,
): string {
  const first = error.validation[0];
  const where = error.validationContext ?? 'request';
  const field = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ?? '';
  if (!field) return sayCommon('invalidRequest', { where })[locale];
  // A schema's own message (a text's key, see inputMessage) is the one to show, in the caller's language.
  const known = first?.message ? inputMessageText(first.message) : undefined;
  if (known) return locale === 'en' ? `${field}: ${known.en}` : known.id;
  // The validator's own words are English only: English shows them, Indonesian says which field.
  return locale === 'en' ? `${field}: ${first?.message ?? 'invalid value'}` : sayCommon('invalidField', { field }).id;
}

export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    logger: options.logger ?? loggerOptions(config),
    genReqId: requestIdFor,
    // false or the proxies' addresses (config.ts refuses a blanket true and a bare number of proxies).
    trustProxy: config.trustProxy && trustedProxies(config.trustProxy),
    bodyLimit: 256 * 1024,
    // Let in-flight requests finish on shutdown, but stop keep-alive connections from holding it open.
    forceCloseConnections: 'idle',
    logController: new RequestLog(),
    childLoggerFactory: requestLoggerFactory,
    // The router's own refusals: a path whose percent-encoding is not UTF-8 (FST_ERR_BAD_URL) is broken text.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const locale = requestLocale(request);
      if (error.code === 'FST_ERR_BAD_URL') {
        return reply.code(400).send(failure(400, sayInvalidText('invalidCharacters')[locale]));
      }
      const statusCode = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
      const message = statusCode >= 500 ? sayCommon('serverError')[locale] : error.message;
      return reply.code(statusCode).send(failure(statusCode, message));
    },
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ checkAnswers: options.checkAnswers }));

  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = requestLocale(request);
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send(failure(400, validationMessage(error, locale)));
    }
    // A string the database would not store got past the invalid-text hook: the caller's input, not our fault.
    if (isInvalidTextError(error)) {
      return reply.code(400).send(failure(400, sayInvalidText('invalidCharacters')[locale]));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'The database is out of reach: answered 503');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send(failure(503, sayCommon('unavailable')[locale]));
    }
    const statusCode = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (statusCode >= 500) {
      // The details stay in the log; the client only learns that it failed, or what to do when we wrote it for them
      // (a provider out of reach: try again, nothing was changed).
      request.log.error({ err: error }, 'Request failed');
      const written = error instanceof HttpError && error.texts ? error.messageIn(locale) : null;
      return reply.code(statusCode).send(failure(statusCode, written ?? sayCommon('serverError')[locale]));
    }
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply.code(statusCode).send(failure(statusCode, error.messageIn(locale), error.data));
    }
    return reply.code(statusCode).send(failure(statusCode, error.message));
  });

  // Fastify reads no body on GET and HEAD, so a route that takes only those has nothing to inflate: it goes without
  // compress's decompression hook (set before compress sees the route). Answers are compressed as before.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.decompress === undefined && methods.every((method) => method === 'GET' || method === 'HEAD')) {
      route.decompress = false;
    }
  });
  await app.register(batchedAnswersPlugin);
  await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  await app.register(helmetPlugin, { config });
  await app.register(cookie);
  await app.register(crossSitePlugin, { config });
  await app.register(rateLimitPlugin);
  await app.register(invalidTextPlugin);

  // An attacker probing for URLs hits the not-found handler: it is rate-limited like any route.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? request.url;
    return reply
      .code(404)
      .send(failure(404, sayCommon('notFound', { method: request.method, path })[requestLocale(request)]));
  });

  await app.register(swaggerPlugin);
  await app.register(databasePlugin, { config });
  await app.register(schedulerPlugin);
  await app.register(messageOutboxPlugin, {
    config,
    twilioApiBaseUrl: options.twilioApiBaseUrl,
    pushAgent: options.pushAgent,
    pushAllowLoopback: options.pushAllowLoopback,
    timing: options.outboxTiming,
  });
  await app.register(authPlugin, { config });
  await app.register(operatorGuard, { config });
  await app.register(billingPlugin, { config });
  await app.register(geoPlugin, { config });
  await app.register(retentionJob, { config });
  await app.register(liveEndingsJob, { config });
  await app.register(liveEventsPlugin);

  await app.register(healthRoutes);
  await app.register(runtimeConfigRoutes, { config });
  await app.register(authRoutes, { config });
  await app.register(locateRoutes);
  await app.register(contactRoutes, { config });
  await app.register(registrationRoutes, { config });
  await app.register(subscriptionRoutes);
  await app.register(webhookRoutes, { config });
  await app.register(accountRoutes, { exportLimits: options.exportLimits });
  await app.register(refundRoutes, { config });
  await app.register(shareRoutes, { config });
  await app.register(myRequestsRoutes, { config });
  await app.register(liveEventsRoutes);
  await app.register(positionsRoutes);
  await app.register(mapViewRoutes);
  await app.register(pushRoutes, { config });
  await app.register(numberRoutes, { config });
  await app.register(requestRoutes, { config });
  await app.register(linkRoutes, { config });
  await app.register(voiceNoteRoutes);
  await app.register(operatorDeskRoutes, { config });
  await app.register(operatorAuthRoutes, { config });
  await app.register(devToolsRoutes, { config });

  if (config.serveWeb) {
    // Loaded only where the web app is served: an API-only instance, and each API test, need not parse the file
    // server and the page stitcher (some 90 modules).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
    await app.register((require('./web/serve-web') as typeof ServeWeb).default, { config });
  }

  return app;
}
