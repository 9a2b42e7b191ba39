import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { sendOutcomeOf, type SendOutcome } from '../../lib/send-limit';

export type MessageChannel = 'sms' | 'email';

export interface MessageTemplate {
  id: string;
  channel: MessageChannel;
  locale: Locale;
  name: string;
  defaultNote: string;
}

export interface MessagePreview {
  subject?: string | null;
  text: string;
}

/** The channel's templates and its note limit (the server's, so the counter and the server agree). */
export function fetchTemplates(
  channel: MessageChannel,
  locale: Locale,
): Promise<{ items: MessageTemplate[]; noteMaxLength: number }> {
  return apiGet('/api/v1/requests/templates', { params: { channel, locale } });
}

export function previewMessage(body: {
  channel: MessageChannel;
  templateId: string;
  note: string;
  locale: Locale;
}): Promise<MessagePreview> {
  return apiPost('/api/v1/requests/preview', body, { toastErrors: false });
}

export async function sendMessage(
  channel: MessageChannel,
  body: { target: string; templateId: string; note: string; locale: Locale },
): Promise<SendOutcome> {
  const { target, ...rest } = body;
  try {
    const data = await apiPost<{ request: LocationRequest }>(
      `/api/v1/requests/${channel}`,
      channel === 'sms' ? { number: target, ...rest } : { email: target, ...rest },
      { toastErrors: false, handledStatuses: [409, 429] },
    );
    return { outcome: 'sent', request: data.request };
  } catch (error) {
    return sendOutcomeOf(error);
  }
}
