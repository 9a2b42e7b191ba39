import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import { isApiError } from '@kabari/shared/api/api-error';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';

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

export interface SendLimit {
  nextAllowedAt: string | null;
  optedOut: boolean;
  /** channel=link: how many days a new link works (the server's LINK_EXPIRY_DAYS). */
  linkExpiryDays?: number;
}

export type LimitQuery = { channel: 'sms'; number: string } | { channel: 'email'; email: string } | { channel: 'link' };

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

/** GET /api/v1/requests/limit: when the next message to this target (or the next link) is allowed. */
export function fetchLimit(query: LimitQuery): Promise<SendLimit> {
  return apiGet('/api/v1/requests/limit', { params: query });
}

export type SendOutcome =
  | { outcome: 'sent'; request: LocationRequest }
  | { outcome: 'limited'; nextAllowedAt: string | null }
  | { outcome: 'optedOut' }
  | { outcome: 'failed'; message: string | null };

/** The refusals this app explains itself (429: the 3-hour limit, 409: opted out); anything else, the server's message. */
export function sendOutcomeOf(error: unknown): Exclude<SendOutcome, { outcome: 'sent' }> {
  if (isApiError(error) && error.status === 429) {
    const next = (error.data as { data?: { nextAllowedAt?: unknown } } | null)?.data?.nextAllowedAt;
    return { outcome: 'limited', nextAllowedAt: typeof next === 'string' ? next : null };
  }
  if (isApiError(error) && error.status === 409) return { outcome: 'optedOut' };
  return { outcome: 'failed', message: isApiError(error) && error.status ? error.message : null };
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

export async function createLink(body: { title: string; locale: Locale }): Promise<SendOutcome> {
  try {
    const data = await apiPost<{ request: LocationRequest }>('/api/v1/links', body, {
      toastErrors: false,
      handledStatuses: [429],
    });
    return { outcome: 'sent', request: data.request };
  } catch (error) {
    return sendOutcomeOf(error);
  }
}
