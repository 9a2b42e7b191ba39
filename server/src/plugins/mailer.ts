import { sql } from 'drizzle-orm';
import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Locale } from '../auth/users';
import type { Config } from '../config';
import { queryRows, type Database, type DatabaseExecutor } from '../db/open-database';
import { outboxMessages } from '../db/schema';

export interface OutgoingEmail {
  /** The same key twice queues one message: retries of a request never send twice. */
  idempotencyKey: string;
  to: string;
  locale: Locale;
  subject: string;
  text: string;
  html: string;
  /** Where replies go, when not to the sender (MAIL_FROM): e.g. the visitor who wrote through the contact form. */
  replyTo?: string;
}

export interface Mailer {
  /** 'smtp' with SMTP_URL; otherwise 'local': messages stay in the outbox, readable at /dev/outbox. */
  readonly transport: 'smtp' | 'local';
  /** Writes the message to the outbox, inside the caller's transaction when given one. */
  queue(db: DatabaseExecutor, email: OutgoingEmail): Promise<void>;
  /** Asks the dispatcher to deliver now instead of at its next tick (call after the transaction commits). */
  kick(): void;
  /** Delivers the messages that are due; resolves with how many were attempted. */
  dispatchDue(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

const BATCH_SIZE = 10;
const MAX_ATTEMPTS = 8;
const POLL_INTERVAL_MS = 5_000;
// A claimed message whose sender died mid-way is retried after this lease.
const CLAIM_LEASE_SECONDS = 120;

/** 30 s, 1 min, 2 min … capped at 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

interface ClaimedMessage {
  id: string;
  recipient: string;
  subject: string | null;
  body_text: string;
  body_html: string | null;
  reply_to: string | null;
  attempts: number;
}

/**
 * Email through the outbox: a message is a row written with the change that causes it; a dispatcher delivers
 * queued rows by SMTP with retries and backoff, so an SMTP outage loses nothing. Without SMTP_URL the outbox is
 * the destination (the local default: nothing to configure on a fresh machine).
 */
export default fp(
  async (app, options: { config: Config }) => {
    const { config } = options;
    const db: Database = app.db;
    const transporter: Transporter | undefined = config.smtpUrl
      ? nodemailer.createTransport(config.smtpUrl)
      : undefined;

    let running: Promise<number> | undefined;
    let kicked = false;
    let closing = false;

    async function deliver(message: ClaimedMessage): Promise<void> {
      try {
        await transporter!.sendMail({
          from: config.mailFrom,
          to: message.recipient,
          subject: message.subject ?? '',
          text: message.body_text,
          html: message.body_html ?? undefined,
          replyTo: message.reply_to ?? undefined,
          messageId: `<${message.id}@kabari>`,
        });
        await db.execute(
          sql`update outbox_messages set state = 'sent', transport = 'smtp', sent_at = now(), last_error = null
              where id = ${message.id}`,
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failed = message.attempts >= MAX_ATTEMPTS;
        app.log.warn({ messageId: message.id, attempts: message.attempts, err: error }, 'Email delivery failed');
        await db.execute(
          sql`update outbox_messages set
                state = ${failed ? 'failed' : 'queued'},
                last_error = ${reason.slice(0, 1000)},
                next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(message.attempts)})
              where id = ${message.id}`,
        );
      }
    }

    async function dispatchBatch(): Promise<number> {
      if (!transporter) return 0;
      // Claiming moves next_attempt_at past a lease: another instance skips these rows (skip locked), and a
      // crash mid-send means a retry after the lease, not a lost message.
      const claimed = await queryRows<ClaimedMessage>(
        db,
        sql`update outbox_messages set attempts = attempts + 1,
              next_attempt_at = now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})
            where id in (
              select id from outbox_messages
              where state = 'queued' and channel = 'email' and next_attempt_at <= now()
              order by created_at limit ${BATCH_SIZE}
              for update skip locked)
            returning id, recipient, subject, body_text, body_html, reply_to, attempts`,
      );
      for (const message of claimed) await deliver(message);
      return claimed.length;
    }

    async function dispatchDue(): Promise<number> {
      // One dispatch at a time in this process; a kick during a run asks for one more run.
      if (running) {
        kicked = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          kicked = false;
          total += await dispatchBatch();
        } while (kicked && !closing);
        return total;
      })().finally(() => {
        running = undefined;
      });
      return running;
    }

    function dispatchInBackground(): void {
      if (closing) return;
      dispatchDue().catch((error) => app.log.error({ err: error }, 'Email dispatcher failed'));
    }

    const mailer: Mailer = {
      transport: transporter ? 'smtp' : 'local',
      async queue(executor, email) {
        await executor
          .insert(outboxMessages)
          .values({
            idempotencyKey: email.idempotencyKey,
            channel: 'email',
            recipient: email.to,
            subject: email.subject,
            bodyText: email.text,
            bodyHtml: email.html,
            replyTo: email.replyTo ?? null,
            locale: email.locale,
            ...(transporter ? {} : { state: 'sent', transport: 'local', sentAt: new Date() }),
          })
          .onConflictDoNothing({ target: outboxMessages.idempotencyKey });
      },
      kick: () => {
        if (transporter) setImmediate(dispatchInBackground);
      },
      dispatchDue,
    };
    app.decorate('mailer', mailer);

    if (transporter) {
      const timer = setInterval(dispatchInBackground, POLL_INTERVAL_MS);
      timer.unref();
      app.addHook('onReady', async () => {
        dispatchInBackground();
      });
      // Runs before the database plugin's onClose (hooks close in reverse order of registration).
      app.addHook('onClose', async () => {
        closing = true;
        clearInterval(timer);
        await running?.catch(() => undefined);
        transporter.close();
      });
    }
  },
  { name: 'mailer', dependencies: ['database'] },
);
