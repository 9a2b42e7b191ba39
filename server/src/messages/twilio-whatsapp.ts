import type { MessageSender } from './message-sender';
import { parseWhatsAppBody } from './whatsapp-content';
import { twilioClient, twilioRefusal, type TwilioApiBaseUrl, type TwilioSettings } from './twilio-sms';

// WhatsApp through Twilio's Messages API, with the same account as SMS. A business may start a WhatsApp conversation
// only with a template Meta approved, so a request goes as that template (its content SID) and the values of its
// variables, never as free text.

export interface WhatsAppSettings {
  /** The WhatsApp sender, `whatsapp:+…`. */
  from: string;
  /** The approved template (Twilio Content API, HX…) of each language. */
  templates: { en: string; id: string };
}

/** Twilio's error codes of a WhatsApp message the number cannot take: it has no WhatsApp (63003, 63024). */
export const NO_WHATSAPP_CODES: readonly string[] = ['63003', '63024'];

/**
 * The sender of WhatsApp messages to `whatsapp:+…`: the template of the message's language with its variables, or a
 * reply's free text.
 */
export function createTwilioWhatsAppSender(
  settings: Pick<TwilioSettings, 'accountSid' | 'authToken' | 'statusCallback'> & WhatsAppSettings,
  apiBaseUrl?: TwilioApiBaseUrl,
  timeoutMs = 30_000,
): MessageSender {
  const client = twilioClient(settings, apiBaseUrl, timeoutMs);
  return {
    transport: 'twilio',
    async send({ to, text, locale }) {
      const contentSid = locale === 'id' ? settings.templates.id : settings.templates.en;
      try {
        const content = parseWhatsAppBody(text);
        const message = await client.messages.create({
          to: `whatsapp:${to}`,
          from: settings.from,
          // A reply inside the window the recipient's own message opened may be free text; anything else is the
          // approved template of the message's language.
          ...('reply' in content
            ? { body: content.reply }
            : { contentSid, contentVariables: JSON.stringify(content.variables) }),
          ...(settings.statusCallback ? { statusCallback: settings.statusCallback } : {}),
        });
        return { providerRef: message.sid };
      } catch (error) {
        throw twilioRefusal(error);
      }
    },
    close() {},
  };
}
