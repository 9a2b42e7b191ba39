import { isApiError } from '@kabari/shared/api/api-error';
import type { ApiBody } from '@kabari/shared/api/api-types';

export type ContactMessage = ApiBody<typeof contactMessagesPath, 'post'>;

export type SendOutcome = 'sent' | 'throttled' | 'rejected' | 'failed';

export const contactMessagesPath = '/api/v1/contact/messages';

function statusOf(error: unknown): number | undefined {
  if (isApiError(error)) return error.status;
  // Without the host's interceptors (a remote's standalone shell), axios's own error.
  return (error as { response?: { status?: number } } | null)?.response?.status;
}

/**
 * POST /api/v1/contact/messages. The API client (and axios with it) loads only now, on submit: the
 * contact page itself stays light. The form shows its own messages, so the host's toasts stay quiet.
 */
export async function sendContactMessage(message: ContactMessage): Promise<SendOutcome> {
  try {
    const { apiPost } = await import('@kabari/shared/api/api-client');
    await apiPost(contactMessagesPath, message, { toastErrors: false, handledStatuses: [400, 429] });
    return 'sent';
  } catch (error) {
    const status = statusOf(error);
    if (status === 429) return 'throttled';
    if (status === 400) return 'rejected';
    return 'failed';
  }
}
