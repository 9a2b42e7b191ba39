import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';
import { sendOutcomeOf, type SendOutcome } from '../../lib/send-limit';

type Templates = ApiData<'/api/v1/requests/templates', 'get'>;
export type MessageTemplate = Templates['items'][number];
export type MessageChannel = MessageTemplate['channel'];
export type MessagePreview = ApiData<'/api/v1/requests/preview', 'post'>;
/** How a request to a number goes: by SMS, or by WhatsApp where the server offers it. */
export type NumberChannel = 'sms' | 'whatsapp';

/** The channel's templates and its note limit (the server's, so the counter and the server agree). */
export function fetchTemplates(channel: MessageChannel, locale: Locale): Promise<Templates> {
  return apiGet('/api/v1/requests/templates', { params: { channel, locale } });
}

export function previewMessage(body: ApiBody<'/api/v1/requests/preview', 'post'>): Promise<MessagePreview> {
  return apiPost('/api/v1/requests/preview', body, { toastErrors: false });
}

export async function sendMessage(
  channel: MessageChannel,
  body: {
    target: string;
    templateId: MessageTemplate['id'];
    note: string;
    locale: Locale;
    voiceNote?: { id: string; text?: string };
    /** A number only: WhatsApp instead of SMS. */
    sendBy?: NumberChannel;
  },
): Promise<SendOutcome> {
  const { target, sendBy, ...rest } = body;
  try {
    const options = { toastErrors: false, handledStatuses: [409, 429] };
    const data =
      channel === 'sms'
        ? await apiPost(
            '/api/v1/requests/sms',
            { number: target, ...(sendBy === 'whatsapp' ? { channel: sendBy } : {}), ...rest },
            options,
          )
        : await apiPost('/api/v1/requests/email', { email: target, ...rest }, options);
    return { outcome: 'sent', request: data.request };
  } catch (error) {
    return sendOutcomeOf(error);
  }
}
