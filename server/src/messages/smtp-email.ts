import type * as Nodemailer from 'nodemailer';
import { PermanentDeliveryError, ProviderCredentialsError, type MessageSender } from './message-sender';
import { smtpErrorCode } from './smtp-receipts';

/** SMTP's limits: below the outbox's claim lease, so a hung exchange never outlives its claim. */
export interface SmtpTiming {
  /** Opening the connection. */
  connectionMs: number;
  /** The server's greeting once connected. */
  greetingMs: number;
  /** Silence on the socket during the exchange. */
  socketMs: number;
}

/**
 * Email through an SMTP server (SMTP_URL), with nodemailer. Pooled: a burst of messages reuses a few connections
 * instead of opening one per message. The timeouts replace nodemailer's (a 10-minute socket timeout, far past the
 * claim lease). nodemailer loads only when SMTP is configured.
 */
export function createSmtpSender(url: string, from: string, timing: SmtpTiming): MessageSender {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  const transporter = (require('nodemailer') as typeof Nodemailer).createTransport({
    url,
    pool: true,
    maxConnections: 3,
    connectionTimeout: timing.connectionMs,
    greetingTimeout: timing.greetingMs,
    socketTimeout: timing.socketMs,
  });
  return {
    transport: 'smtp',
    async send(message) {
      try {
        const info = await transporter.sendMail({
          from,
          to: message.to,
          subject: message.subject ?? '',
          text: message.text,
          html: message.html,
          replyTo: message.replyTo,
          messageId: `<${message.id}@kabari>`,
        });
        // The receiving server's answer to the recipient (RCPT TO): accepted is the email's receipt. One refused
        // while the exchange went on is a permanent refusal of that address.
        const named = (list: unknown[] | undefined) =>
          (list ?? []).some((address) => String(address).toLowerCase() === message.to.toLowerCase());
        if (named(info.rejected)) {
          const code = info.rejectedErrors?.[0]?.responseCode ?? 550;
          throw new PermanentDeliveryError(`The SMTP server refused the recipient (${code})`, smtpErrorCode(code));
        }
        return {
          providerRef: String(info.messageId),
          ...(named(info.accepted) ? { receipt: 'delivered' as const } : {}),
        };
      } catch (error) {
        // The server refuses the login (nodemailer's EAUTH): SMTP_URL's user or password is wrong.
        if ((error as { code?: string }).code === 'EAUTH') {
          throw new ProviderCredentialsError(
            'smtp',
            `The SMTP server refused Kabari's login: ${(error as Error).message}`,
          );
        }
        // A 5xx reply (no such mailbox, rejected) is final; 4xx (busy, greylisted) is worth another try.
        const code = (error as { responseCode?: number }).responseCode;
        if (typeof code === 'number' && code >= 500 && code < 600) {
          throw new PermanentDeliveryError(
            `The SMTP server refused the message (${code}): ${(error as Error).message}`,
            smtpErrorCode(code),
          );
        }
        throw error;
      }
    },
    close: () => transporter.close(),
  };
}
