import { emailHtml, paragraphHtml } from './email-document';
import type { RenderedEmail } from './templates';

/** An email to the operator, in English (the operator's language): its lines as paragraphs ('' between them). */
export function operatorEmail(subject: string, lines: string[]): RenderedEmail {
  const html = emailHtml(
    'en',
    lines
      .filter((line) => line !== '')
      .map(paragraphHtml)
      .join('\n'),
    { signed: false },
  );
  return { subject, text: lines.join('\n'), html };
}

/** The operator's email when a message provider refuses Kabari's credentials. */
export function providerCredentialsEmail(transport: 'smtp' | 'twilio', reason: string): RenderedEmail {
  const provider = transport === 'twilio' ? 'Twilio' : 'the SMTP server';
  const Provider = provider[0]!.toUpperCase() + provider.slice(1);
  const what = transport === 'twilio' ? 'text message' : 'email';
  const settings =
    transport === 'twilio' ? 'TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN' : 'the user and password in SMTP_URL';
  return operatorEmail(`Kabari: ${provider} refuses Kabari's credentials`, [
    `${Provider} refuses Kabari's credentials. What it answered: ${reason}`,
    '',
    `No ${what} can go out until this is fixed. The messages stay in the outbox and are tried again every 15 ` +
      `minutes: none is lost, and they go out once ${provider} accepts the credentials.`,
    '',
    `Check ${settings}, then restart the server.`,
    '',
    'This email is sent once a day at most while the refusals go on.',
  ]);
}
