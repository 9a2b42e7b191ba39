// How the outbox keeps a WhatsApp message's content (its body, as JSON), apart from the sender so that the outbox and
// the local outbox page read it without loading Twilio's SDK: an approved template's variables, or the free text of
// an answer to the recipient's own message (allowed only inside the 24 hours WhatsApp opens with their message).

/**
 * The values of a request template's variables, as the outbox keeps them (the message's body, as JSON): {{1}} who
 * asks (their display name), {{2}} the consent link, {{3}} the opt-out line with its links, as the SMS says it.
 */
export interface WhatsAppVariables {
  '1': string;
  '2': string;
  '3': string;
}

export type WhatsAppContent = { variables: WhatsAppVariables } | { reply: string };

/** The outbox body of a WhatsApp message: a template's variables as they are ({"1": …}), or {"reply": text}. */
export function whatsAppBody(content: WhatsAppContent): string {
  return JSON.stringify('reply' in content ? { reply: content.reply } : content.variables);
}

/** A WhatsApp message's content from its outbox body; throws on a body that is neither. */
export function parseWhatsAppBody(body: string): WhatsAppContent {
  const value = JSON.parse(body) as Partial<WhatsAppVariables> & { reply?: unknown };
  if (typeof value.reply === 'string') return { reply: value.reply };
  if (typeof value['1'] !== 'string' || typeof value['2'] !== 'string' || typeof value['3'] !== 'string') {
    throw new Error('a WhatsApp message without its template variables');
  }
  return { variables: { '1': value['1'], '2': value['2'], '3': value['3'] } };
}
