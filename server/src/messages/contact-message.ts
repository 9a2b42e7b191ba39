import type { ContactTopic } from '../db/column-values';
import type { RenderedEmail } from './templates';
import { escapeHtml } from '../lib/escape-html';
import { emailHtml } from './email-document';

const TOPIC_LABELS: Record<ContactTopic, string> = {
  question: 'A question about Kabari',
  billing: 'Billing, cancelling or a refund',
  privacy: 'Personal data and privacy',
  misuse: 'Report of misuse',
  other: 'Something else',
};

export interface ContactMessage {
  id: string;
  name: string;
  email: string;
  topic: ContactTopic;
  message: string;
  locale: 'en' | 'id';
  receivedAt: Date;
}

/** The operator's copy of a contact-form message, in English (the operator's language); replies go to the visitor. */
export function contactMessageEmail(contact: ContactMessage): RenderedEmail {
  const topic = TOPIC_LABELS[contact.topic];
  const language = contact.locale === 'id' ? 'Indonesian (id)' : 'English (en)';
  const details: [string, string][] = [
    ['Name', contact.name],
    ['Email', contact.email],
    ['Topic', topic],
    ['Language', language],
    ['Reference', contact.id],
    ['Received', contact.receivedAt.toISOString()],
  ];
  const subject = `Contact form: ${topic} (${contact.name})`;
  const text = [
    'A visitor wrote through the contact form.',
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    '',
    'Message:',
    contact.message,
    '',
    `Replying to this email answers ${contact.email}. They wrote in ${language}.`,
  ].join('\n');
  const html = emailHtml(
    'en',
    `<p>A visitor wrote through the contact form.</p>
<table>${details.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<p style="white-space: pre-wrap; border-left: 3px solid #ccc; padding-left: 12px">${escapeHtml(contact.message)}</p>
<p style="color: #666">Replying to this email answers ${escapeHtml(contact.email)}. They wrote in ${escapeHtml(language)}.</p>`,
    { signed: false },
  );
  return { subject, text, html };
}
