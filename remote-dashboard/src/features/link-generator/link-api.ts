import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiBody } from '@kabari/shared/api/api-types';
import { sendOutcomeOf, type SendOutcome } from '../../lib/send-limit';

export async function createLink(body: ApiBody<'/api/v1/links', 'post'>): Promise<SendOutcome> {
  try {
    const data = await apiPost('/api/v1/links', body, {
      toastErrors: false,
      handledStatuses: [429],
    });
    return { outcome: 'sent', request: data.request };
  } catch (error) {
    return sendOutcomeOf(error);
  }
}
