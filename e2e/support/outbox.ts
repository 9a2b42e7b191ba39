// The local outbox of a Kabari started by these tests: every email and SMS it sent or would send, newest first.
import { devToolUrl } from './kabari-server';

export interface OutboxMessage {
  id: string;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  replyTo: string | null;
  bodyText: string;
}

/** The messages to `recipient` (an email address or an E.164 number), newest first. */
export async function outboxMessages(baseURL: string, recipient: string): Promise<OutboxMessage[]> {
  const url = devToolUrl(baseURL, '/dev/outbox');
  url.searchParams.set('format', 'json');
  url.searchParams.set('recipient', recipient);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return ((await response.json()) as { data: OutboxMessage[] }).data;
}

/** What the outbox page's buttons do: record a simulated delivery receipt of an SMS, as Twilio's callback would. */
export async function simulateReceipt(baseURL: string, messageId: string, receipt: 'delivered' | 'failed') {
  const response = await fetch(devToolUrl(baseURL, `/dev/outbox/${messageId}/receipt`), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ receipt }),
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
}
