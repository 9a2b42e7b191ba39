import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { errorEnvelope, errorResponses, ok } from '../../lib/envelope';
import { processorsOf } from '../../payments/processors';
import { contactMessages, failedMessages, markContactMessage, retryFailedMessage } from '../../safety-desk/desk-queues';
import { markRefunded, refundsOwed, refundThroughProcessor } from '../../safety-desk/refund-queue';
import { dismissReport, suspendRequester, warnRequester } from '../../safety-desk/report-actions';
import { listReports, reportDetail, reportVoiceNoteAudio } from '../../safety-desk/reports';
import { smsSpendToday } from '../../safety-desk/sms-spend';
import { liftSuspension, listSuspensions } from '../../safety-desk/suspensions';
import { askedRange, sendAudio } from '../voice-notes/audio-http';
import { audioDescription } from '../voice-notes/schemas';
import {
  contactMessageResponse,
  contactMessagesResponse,
  contactQuery,
  decisionResponse,
  failedMessagesResponse,
  idParams,
  markRefundedBody,
  optionalNoteBody,
  refundedResponse,
  refundsResponse,
  reportResponse,
  reportsQuery,
  reportsResponse,
  requiredNoteBody,
  retryResponse,
  smsSpendResponse,
  suspensionResponse,
  suspensionsResponse,
} from './schemas';

/**
 * The operator's safety desk: abuse reports and the decisions on them, suspensions, and the queues (refunds owed,
 * contact messages, messages that failed for good, today's SMS spend). HTTP only; the rules are in safety-desk/.
 * Every URL here is behind the operator guard (plugins/operator-guard.ts): 404 for anyone who is not a signed-in
 * operator, the origin checked on every change, rate limited; the guard names the operator on the request.
 */
const operatorDeskRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, options) => {
  const { publicUrl, requests } = options.config;
  const tags = ['operator'];
  const responses = { 404: errorEnvelope, ...errorResponses };
  const changes = { 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, ...errorResponses };
  const actionDeps = () => ({
    db: app.db,
    outbox: app.outbox,
    hmacSecret: app.auth.secrets.hmacSecret,
    publicUrl,
  });

  app.get(
    '/api/v1/operator/reports',
    {
      schema: {
        tags,
        summary: 'Abuse reports, open or closed, newest first, 50 a page',
        querystring: reportsQuery,
        response: { 200: reportsResponse, ...responses },
      },
    },
    async (request) => ok(await listReports(app.db, request.query.state, request.query.before)),
  );

  app.get(
    '/api/v1/operator/reports/:id',
    {
      schema: {
        tags,
        summary: 'One report, the request it concerns and its requester (never a position or a voice reply)',
        params: idParams,
        response: { 200: reportResponse, ...responses },
      },
    },
    async (request) => ok(await reportDetail(app.db, request.params.id, requests.smsPrice)),
  );

  app.get(
    '/api/v1/operator/reports/:id/voice-note',
    {
      schema: {
        tags,
        summary: 'The copy of the voice note the recipient heard, kept with the report',
        description: `${audioDescription} A report without one: 404.`,
        params: idParams,
        response: { ...responses, 416: errorEnvelope },
      },
    },
    async (request, reply) =>
      sendAudio(reply, await reportVoiceNoteAudio(app.db, request.params.id, askedRange(request))),
  );

  app.post(
    '/api/v1/operator/reports/:id/dismiss',
    {
      schema: {
        tags,
        summary: 'Close a report with nothing to act on (a note is needed)',
        params: idParams,
        body: requiredNoteBody,
        response: { 200: decisionResponse, ...changes },
      },
    },
    async (request) => ok(await dismissReport(actionDeps(), request.operator!, request.params.id, request.body.note)),
  );

  app.post(
    '/api/v1/operator/reports/:id/warn',
    {
      schema: {
        tags,
        summary: 'Warn the requester by email in their language, and close the report',
        params: idParams,
        body: optionalNoteBody,
        response: { 200: decisionResponse, ...changes },
      },
    },
    async (request) => ok(await warnRequester(actionDeps(), request.operator!, request.params.id, request.body.note)),
  );

  app.post(
    '/api/v1/operator/reports/:id/suspend',
    {
      schema: {
        tags,
        summary: 'Suspend the requester and close the report (a note is needed)',
        description:
          'At once: every request a recipient could still act on is cancelled (live sharing ends, the link says ' +
          'the request has ended), every session of the account ends, sign-in and sending are refused, the ' +
          'subscription renews no more, the payment of the running period is owed back, and sign-up refuses the ' +
          'email while the suspension stands. 409 when the account is gone or already suspended.',
        params: idParams,
        body: requiredNoteBody,
        response: { 200: decisionResponse, ...changes },
      },
    },
    async (request) =>
      ok(await suspendRequester(actionDeps(), request.operator!, request.params.id, request.body.note)),
  );

  app.get(
    '/api/v1/operator/suspensions',
    {
      schema: {
        tags,
        summary: 'Suspensions, standing and lifted, newest first',
        response: { 200: suspensionsResponse, ...responses },
      },
    },
    async () => ok({ suspensions: await listSuspensions(app.db) }),
  );

  app.post(
    '/api/v1/operator/suspensions/:id/lift',
    {
      schema: {
        tags,
        summary: 'Lift a suspension (a note is needed): sign-in, sending and sign-up work again',
        description: 'What the suspension ended stays ended. 404 when none stands under this id.',
        params: idParams,
        body: requiredNoteBody,
        response: { 200: suspensionResponse, ...changes },
      },
    },
    async (request) =>
      ok({ suspension: await liftSuspension(app.db, request.operator!, request.params.id, request.body.note) }),
  );

  const refundDeps = () => ({ db: app.db, processors: processorsOf(app.billing) });

  app.get(
    '/api/v1/operator/refunds-owed',
    {
      schema: {
        tags,
        summary: "Refunds owed: the refund form's requests, suspensions, refused refunds and disputes",
        response: { 200: refundsResponse, ...responses },
      },
    },
    async () => ok({ refunds: await refundsOwed(refundDeps()) }),
  );

  app.post(
    '/api/v1/operator/refunds-owed/:id/refund',
    {
      schema: {
        tags,
        summary: 'Give the money back through the processor that took it (idempotent)',
        description:
          '409 when the processor cannot (not configured here, a dispute, or it refused: then refund by hand); 502 ' +
          'when it failed just now (try again).',
        params: idParams,
        body: optionalNoteBody,
        response: { 200: refundedResponse, ...changes, 502: errorEnvelope },
      },
    },
    async (request) =>
      ok(await refundThroughProcessor(refundDeps(), request.operator!, request.params.id, request.body.note)),
  );

  app.post(
    '/api/v1/operator/refunds-owed/:id/mark-refunded',
    {
      schema: {
        tags,
        summary: 'Record a refund made by hand, with its reference',
        params: idParams,
        body: markRefundedBody,
        response: { 200: refundedResponse, ...changes },
      },
    },
    async (request) =>
      ok(await markRefunded(app.db, request.operator!, request.params.id, request.body.reference, request.body.note)),
  );

  app.get(
    '/api/v1/operator/contact-messages',
    {
      schema: {
        tags,
        summary: 'Contact messages still to answer, or answered ones, newest first',
        querystring: contactQuery,
        response: { 200: contactMessagesResponse, ...responses },
      },
    },
    async (request) => ok(await contactMessages(app.db, request.query.state)),
  );

  app.post(
    '/api/v1/operator/contact-messages/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark a contact message read',
        params: idParams,
        response: { 200: contactMessageResponse, ...changes },
      },
    },
    async (request) => ok(await markContactMessage(app.db, request.operator!, request.params.id, { answered: false })),
  );

  app.post(
    '/api/v1/operator/contact-messages/:id/answered',
    {
      schema: {
        tags,
        summary: 'Mark a contact message answered, with an optional note',
        params: idParams,
        body: optionalNoteBody,
        response: { 200: contactMessageResponse, ...changes },
      },
    },
    async (request) =>
      ok(
        await markContactMessage(app.db, request.operator!, request.params.id, {
          answered: true,
          note: request.body.note,
        }),
      ),
  );

  app.get(
    '/api/v1/operator/failed-messages',
    {
      schema: {
        tags,
        summary: 'Outgoing messages that failed for good, the recipient masked',
        response: { 200: failedMessagesResponse, ...responses },
      },
    },
    async () => ok(await failedMessages(app.db)),
  );

  app.post(
    '/api/v1/operator/failed-messages/:id/retry',
    {
      schema: {
        tags,
        summary: 'Send a failed message again (idempotent)',
        description: "409 for a message that carried a location request's link, which is no longer kept.",
        params: idParams,
        response: { 200: retryResponse, ...changes },
      },
    },
    async (request) => ok(await retryFailedMessage(app.db, app.outbox, request.operator!, request.params.id)),
  );

  app.get(
    '/api/v1/operator/sms-spend',
    {
      schema: {
        tags,
        summary: "Today's SMS against the caps, per country and per account",
        response: { 200: smsSpendResponse, ...responses },
      },
    },
    async () =>
      ok(
        await smsSpendToday(app.db, requests.sendLimits, {
          sms: requests.smsPrice,
          whatsapp: requests.whatsappPrice,
        }),
      ),
  );
};

export default operatorDeskRoutes;
