import type { Agent } from 'node:https';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Database, DatabaseExecutor } from '../db/open-database';
import { PermanentDeliveryError, ProviderCredentialsError, type MessageSender } from '../messages/message-sender';
import { providerCredentialsEmail } from '../messages/operator-email';
import { createSmtpSender } from '../messages/smtp-email';
import type * as TwilioSms from '../messages/twilio-sms';
import type { TwilioApiBaseUrl } from '../messages/twilio-sms';
import type * as TwilioWhatsApp from '../messages/twilio-whatsapp';
import type { MessageOutbox } from '../messages/message-outbox';
import { whatsAppBody } from '../messages/whatsapp-content';
import {
  claimDueMessages,
  deleteMessage,
  holdMessage,
  insertOutboxMessage,
  markAttemptFailed,
  markMessageSent,
  renewMessageLeases,
  rewriteRequestMessage,
  type ClaimedMessage,
} from '../messages/outbox-rows';
import { createWebPushSender, loadVapidKeys } from '../messages/web-push-sender';
import type { PublicAddressPolicy } from '../lib/public-address';
import { publishDeliveryChange, smsFallbackServices } from '../requests/request-deliveries';
import { hasNoWhatsApp, sendSmsInsteadOfWhatsApp } from '../requests/whatsapp-fallback';
import { twilioStatusCallback } from '../messages/twilio-status';
import { recordReceipt } from '../messages/delivery-receipt-rows';

/**
 * How long one delivery may take, and how often a claim is renewed while its batch is being sent. Every
 * provider timeout is well below the claim lease, and the lease is renewed while sending: a slow provider can
 * never outlive the claim and let another dispatcher send the same message again.
 */
export interface DeliveryTiming {
  /** SMTP: opening the connection. */
  smtpConnectionMs: number;
  /** SMTP: the server's greeting once connected. */
  smtpGreetingMs: number;
  /** SMTP: silence on the socket during the exchange. */
  smtpSocketMs: number;
  /** Twilio: one HTTP request (and its socket). */
  twilioRequestMs: number;
  /** Web Push: one request to a push service, start to end (its name's lookup, connecting and the answer). */
  pushRequestMs: number;
  /** How often the leases of a claimed batch are renewed while it is being delivered. */
  leaseRenewalMs: number;
}

// A consent link's token in a message body (base64url), and what stands for it once a provider has the message.
// The migration that introduced this (0018) rewrote the messages sent before it with the same pattern.
const SENT_TOKEN_PATTERN = 'token=[A-Za-z0-9_-]+';
export const SENT_TOKEN_REPLACEMENT = 'token=[token]';

// A claimed message whose sender died mid-way is retried after this lease.
export const CLAIM_LEASE_SECONDS = 120;

export const DELIVERY_TIMING: DeliveryTiming = {
  smtpConnectionMs: 10_000,
  smtpGreetingMs: 10_000,
  smtpSocketMs: 30_000,
  twilioRequestMs: 30_000,
  pushRequestMs: 15_000,
  leaseRenewalMs: 30_000,
};

export interface MessageOutboxOptions {
  config: Config;
  /** Tests: a local fake of Twilio's API the SDK sends to instead of Twilio. */
  twilioApiBaseUrl?: TwilioApiBaseUrl;
  /** The HTTPS agent push messages go through (tests: one that trusts a local push service's certificate). */
  pushAgent?: Agent;
  /** Push services on this machine may be sent to (tests' own service), as PUSH_ALLOW_LOOPBACK allows. */
  pushAllowLoopback?: boolean;
  /** Shorter timeouts and renewals for tests; the defaults are DELIVERY_TIMING. */
  timing?: Partial<DeliveryTiming>;
}

/** Whom push services may contact about Kabari's messages (VAPID's subject): the site when on https, else the operator. */
function vapidSubject(config: Config): string {
  return config.publicUrl.startsWith('https://') ? config.publicUrl : `mailto:${config.operatorEmail}`;
}

/** Which addresses a browser's push endpoint may have: public ones, and loopback only where a test allows it. */
export function pushAddressPolicy(
  config: Pick<Config, 'pushAllowLoopback'>,
  options: Pick<MessageOutboxOptions, 'pushAllowLoopback'>,
): PublicAddressPolicy {
  return { allowLoopback: config.pushAllowLoopback || options.pushAllowLoopback === true };
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: MessageOutbox;
  }
}

const BATCH_SIZE = 10;
const MAX_ATTEMPTS = 8;
/** How long messages wait between tries while their provider refuses Kabari's credentials. */
export const CREDENTIALS_RETRY_SECONDS = 15 * 60;
const POLL_INTERVAL_MS = 5_000;

/** 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

const CHANNELS = ['email', 'sms', 'push', 'whatsapp'] as const;
type Channel = (typeof CHANNELS)[number];
/** The scheduler's job for one channel's lane. */
const laneJob = (channel: Channel) => `outbox:${channel}`;

type DeliveryOutcome =
  | {
      state: 'sent';
      transport: MessageSender['transport'] | 'local';
      providerRef: string | null;
      receipt?: 'delivered';
    }
  | { state: 'queued' | 'failed'; error: string; providerCode?: string }
  // Held: the provider refuses our credentials. The attempt does not count towards MAX_ATTEMPTS.
  | { state: 'queued'; error: string; heldSeconds: number };

/**
 * The outbox: a message (email, SMS or push notification) is a row written with the change that causes it; a
 * dispatcher delivers queued rows through the channel's provider (SMTP, Twilio, the browser's push service) with
 * retries and exponential backoff, so an outage loses nothing. Rows are claimed with a lease (skip locked), so two
 * instances never send the same row and a process that dies mid-send leaves it to be retried after the lease. Email
 * or SMS without a configured provider stays in the outbox itself (readable at /dev/outbox): the local default. Such
 * a row is done with (state 'sent', so no dispatcher ever picks it up) but was sent to no one: transport 'local' says
 * so, and the requester sees it as the delivery state 'outbox', never as 'sent' (deliveryOf).
 *
 * The idempotency key makes a message one row however often its cause is retried. Twilio's API takes no
 * idempotency key, so the one case that can still send an SMS twice is the provider accepting it and this
 * process dying (or timing out) before the row is marked sent; SMTP gets the row's id as its Message-ID, and a push
 * service its topic.
 */
export default fp(
  async (app, options: MessageOutboxOptions) => {
    const { config } = options;
    const timing: DeliveryTiming = { ...DELIVERY_TIMING, ...options.timing };
    const db: Database = app.db;
    // Each channel's provider, or none (the outbox keeps the message). A provider's SDK loads only when it is
    // configured: Twilio's alone takes a few hundred milliseconds.
    const twilioSettings = config.requests.twilio;
    const whatsAppSettings = config.requests.whatsapp;
    const statusCallback = twilioStatusCallback(config.publicUrl, config.localTrial);
    const vapidKeys = await loadVapidKeys(db, config.vapidPrivateKey);
    const senders: Record<Channel, MessageSender | undefined> = {
      email: config.smtpUrl
        ? createSmtpSender(config.smtpUrl, config.mailFrom, {
            connectionMs: timing.smtpConnectionMs,
            greetingMs: timing.smtpGreetingMs,
            socketMs: timing.smtpSocketMs,
          })
        : undefined,
      sms: twilioSettings
        ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
          (require('../messages/twilio-sms') as typeof TwilioSms).createTwilioSender(
            { ...twilioSettings, statusCallback },
            options.twilioApiBaseUrl,
            timing.twilioRequestMs,
          )
        : undefined,
      // WhatsApp is configured only beside Twilio's SMS settings (requests-config.ts).
      whatsapp:
        twilioSettings && whatsAppSettings
          ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
            (require('../messages/twilio-whatsapp') as typeof TwilioWhatsApp).createTwilioWhatsAppSender(
              { ...twilioSettings, ...whatsAppSettings, statusCallback },
              options.twilioApiBaseUrl,
              timing.twilioRequestMs,
            )
          : undefined,
      push: createWebPushSender(
        db,
        { ...vapidKeys, subject: vapidSubject(config) },
        {
          deadlineMs: timing.pushRequestMs,
          agent: options.pushAgent,
          addressPolicy: pushAddressPolicy(config, options),
        },
      ),
    };

    let closing = false;

    async function attempt(message: ClaimedMessage): Promise<DeliveryOutcome> {
      const sender = senders[message.channel];
      if (!sender) return { state: 'sent', transport: 'local', providerRef: null };
      try {
        const { providerRef, receipt } = await sender.send({
          id: message.id,
          to: message.recipient,
          text: message.body_text,
          locale: message.locale,
          subject: message.subject ?? undefined,
          html: message.body_html ?? undefined,
          replyTo: message.reply_to ?? undefined,
        });
        // Kept so that the provider's delivery receipts find the message.
        return { state: 'sent', transport: sender.transport, providerRef, ...(receipt ? { receipt } : {}) };
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
        if (error instanceof ProviderCredentialsError) {
          app.log.error(
            { messageId: message.id, channel: message.channel, transport: error.transport, err: error },
            'The message provider refuses Kabari’s credentials: messages are held until it accepts them',
          );
          await alertOperator(error);
          return { state: 'queued', error: reason, heldSeconds: CREDENTIALS_RETRY_SECONDS };
        }
        const permanent = error instanceof PermanentDeliveryError;
        app.log.warn(
          { messageId: message.id, channel: message.channel, attempts: message.attempts, permanent, err: error },
          'Message delivery failed',
        );
        return {
          state: permanent || message.attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
          error: reason,
          ...(permanent && error.providerCode ? { providerCode: error.providerCode } : {}),
        };
      }
    }

    /**
     * Tells the operator by email, once a day per provider (the key names the day, so every instance and every held
     * message queue one), that the provider refuses Kabari's credentials. An email refused this way by SMTP itself
     * waits with the others: the error in the log says it meanwhile.
     */
    async function alertOperator(error: ProviderCredentialsError): Promise<void> {
      const day = new Date().toISOString().slice(0, 10);
      try {
        const queued = await outbox.queue(db, {
          idempotencyKey: `provider-credentials:${error.transport}:${day}`,
          to: config.operatorEmail,
          locale: 'en',
          ...providerCredentialsEmail(error.transport, error.message),
        });
        if (queued) outbox.kick();
      } catch (alertError) {
        app.log.error({ err: alertError }, 'Queueing the operator’s alert failed');
      }
    }

    async function settle(message: ClaimedMessage, outcome: DeliveryOutcome): Promise<void> {
      let smsInstead = false;
      await db.transaction(async (tx) => {
        if (message.erase_when_sent && outcome.state !== 'queued') {
          await deleteMessage(tx, message.id);
          return;
        }
        if (outcome.state === 'sent') {
          await markMessageSent(tx, message.id, outcome.transport, outcome.providerRef);
          // Taking it said it arrived (the recipient's mail server accepted it): its receipt, published below.
          if (outcome.receipt) await recordReceipt(tx, message.id, outcome.receipt, null);
        } else if ('heldSeconds' in outcome) {
          await holdMessage(tx, message.id, outcome.error, outcome.heldSeconds);
        } else {
          await markAttemptFailed(tx, message.id, outcome.state, outcome.error, retryDelaySeconds(message.attempts));
          // The provider refused it for good and said why: kept as its failed receipt, which the requester reads.
          if (outcome.state === 'failed' && outcome.providerCode) {
            await recordReceipt(tx, message.id, 'failed', outcome.providerCode);
            // Refused at once because the number has no WhatsApp: its request goes by SMS instead, and says so.
            if (message.channel === 'whatsapp' && hasNoWhatsApp('failed', outcome.providerCode)) {
              const fallback = smsFallbackServices(config, outbox, app.auth.secrets.hmacSecret);
              smsInstead = (await sendSmsInsteadOfWhatsApp(tx, fallback, message.id)) !== null;
            }
          }
        }
        // A provider has the message (or refused it for good): nobody needs the consent link in our copy again.
        if (outcome.state === 'failed' || (outcome.state === 'sent' && outcome.transport !== 'local')) {
          await forgetRequestToken(tx, message.id);
        }
        // The requester sees a request's delivery state live when it changes (not on a retry that stays queued); the
        // SMS fallback published its own.
        if (outcome.state !== 'queued' && !smsInstead) await publishDeliveryChange(tx, message.id);
      });
      if (smsInstead) outbox.kick();
    }

    /**
     * Replaces the token in a location request's message (its consent and opt-out links) with `[token]`: once a
     * provider has taken it, our copy is only a record of what was sent. The requester's list shows the delivery
     * state, never the text. Other messages (codes, receipts) have their own retention and are left alone.
     */
    async function forgetRequestToken(tx: DatabaseExecutor, messageId: string): Promise<void> {
      await rewriteRequestMessage(tx, messageId, SENT_TOKEN_PATTERN, SENT_TOKEN_REPLACEMENT);
    }

    async function dispatchBatch(channel: Channel): Promise<number> {
      // Claiming moves next_attempt_at past a lease: another instance skips these rows (skip locked), and a
      // crash mid-send means a retry after the lease, not a lost message.
      const claimed = await claimDueMessages(db, channel, BATCH_SIZE, CLAIM_LEASE_SECONDS);
      // The ones still waiting keep their claim while the others go.
      const waiting = new Set(claimed.map((message) => message.id));
      // One renewal at a time. A renewal still naming a message must land before its outcome is written, or it
      // would push a failed message's retry time out to a whole lease.
      let renewing: Promise<void> | undefined;
      const renewal = setInterval(() => {
        if (renewing) return;
        renewing = renewLeases([...waiting])
          .catch((error) => app.log.error({ err: error }, 'Renewing message claims failed'))
          .finally(() => {
            renewing = undefined;
          });
      }, timing.leaseRenewalMs);
      const deliver = async (message: ClaimedMessage) => {
        const outcome = await attempt(message);
        // Settled from here on: later renewals leave it alone, and one already under way lands first.
        waiting.delete(message.id);
        await renewing;
        await settle(message, outcome);
      };
      try {
        // Email and SMS go one at a time, in order, through their provider's connections. Each push goes to a
        // service of its browser's own: the batch's pushes go together, so one slow service holds up no other.
        if (channel === 'push') await Promise.all(claimed.map(deliver));
        else for (const message of claimed) await deliver(message);
      } finally {
        clearInterval(renewal);
        await renewing;
      }
      return claimed.length;
    }

    async function renewLeases(ids: string[]): Promise<void> {
      if (ids.length === 0) return;
      await renewMessageLeases(db, ids, CLAIM_LEASE_SECONDS);
    }

    /**
     * One lane of delivery per channel, each with its own dispatch loop: a push service that takes its time, or an
     * SMTP server that is down, never holds up another channel's messages (a reset code waits on no notification).
     * One dispatch at a time per lane in this process; a kick during a run asks for one more run.
     */
    function lane(channel: Channel) {
      let running: Promise<number> | undefined;
      let kicked = false;
      const run = (): Promise<number> => {
        if (running) {
          kicked = true;
          return running;
        }
        running = (async () => {
          let total = 0;
          let claimed: number;
          do {
            kicked = false;
            claimed = await dispatchBatch(channel);
            total += claimed;
            // A full batch means more may be due now.
          } while ((kicked || claimed === BATCH_SIZE) && !closing);
          return total;
        })().finally(() => {
          running = undefined;
        });
        return running;
      };
      /** Waits for the run under way, if any, without starting one. */
      const settled = async () => {
        await running?.catch(() => undefined);
      };
      return { run, settled };
    }
    const lanes = Object.fromEntries(CHANNELS.map((channel) => [channel, lane(channel)])) as Record<
      Channel,
      ReturnType<typeof lane>
    >;

    /** Every lane at once; resolves with how many messages were attempted. */
    async function dispatchDue(): Promise<number> {
      const counts = await Promise.all(CHANNELS.map((channel) => lanes[channel].run()));
      return counts.reduce((sum, count) => sum + count, 0);
    }

    // Without a provider a message is finished the moment it is written: it stays in the outbox, sent to no one.
    // Transport 'local' marks it so; the requester's view reports it as 'outbox' (deliveryOf).
    const localDelivery = () => ({ state: 'sent', transport: 'local', sentAt: new Date() }) as const;

    const outbox: MessageOutbox = {
      transport: senders.email ? 'smtp' : 'local',
      smsTransport: senders.sms ? 'twilio' : 'local',
      // Without Twilio at all WhatsApp stays in the local outbox, like SMS; with Twilio's SMS but no WhatsApp sender
      // there is no WhatsApp.
      whatsappTransport: senders.whatsapp ? 'twilio' : twilioSettings ? 'none' : 'local',
      vapidPublicKey: vapidKeys.publicKey,
      pushAddressPolicy: pushAddressPolicy(config, options),
      queue: (executor, email) =>
        insertOutboxMessage(executor, {
          idempotencyKey: email.idempotencyKey,
          channel: 'email',
          recipient: email.to,
          subject: email.subject,
          bodyText: email.text,
          bodyHtml: email.html,
          replyTo: email.replyTo ?? null,
          eraseWhenSent: email.eraseWhenSent ?? false,
          locale: email.locale,
          ...(senders.email ? {} : localDelivery()),
        }),
      queuePush: (executor, push) =>
        insertOutboxMessage(executor, {
          idempotencyKey: push.idempotencyKey,
          channel: 'push',
          recipient: push.subscriptionId,
          bodyText: JSON.stringify(push.notification),
          locale: push.locale,
        }),
      queueSms: (executor, sms) =>
        insertOutboxMessage(executor, {
          idempotencyKey: sms.idempotencyKey,
          channel: 'sms',
          recipient: sms.to,
          bodyText: sms.text,
          locale: sms.locale,
          ...(senders.sms ? {} : localDelivery()),
        }),
      queueWhatsApp: (executor, whatsApp) =>
        insertOutboxMessage(executor, {
          idempotencyKey: whatsApp.idempotencyKey,
          channel: 'whatsapp',
          recipient: whatsApp.to,
          // The template's variables (or a reply's text): what the sender hands Twilio, what the local outbox shows.
          bodyText: whatsAppBody(whatsApp.content),
          locale: whatsApp.locale,
          ...(senders.whatsapp ? {} : localDelivery()),
        }),
      kick: () => {
        for (const channel of CHANNELS) app.scheduler.runSoon(laneJob(channel));
      },
      dispatchDue,
    };
    app.decorate('outbox', outbox);

    // Messages left queued by an earlier run (a restart) are picked up on start; then every few seconds and whenever
    // a message is queued (kick). Push always has its provider, so the dispatcher always runs.
    for (const channel of CHANNELS) {
      app.scheduler.add(laneJob(channel), { everyMs: POLL_INTERVAL_MS }, lanes[channel].run);
    }
    // Runs before the database plugin's onClose (hooks close in reverse order of registration).
    app.addHook('onClose', async () => {
      closing = true;
      // Each lane stops after its batch under way.
      await Promise.all(CHANNELS.map((channel) => lanes[channel].settled()));
      senders.email?.close();
      senders.sms?.close();
      senders.whatsapp?.close();
    });
  },
  { name: 'outbox', dependencies: ['database', 'scheduler'] },
);
