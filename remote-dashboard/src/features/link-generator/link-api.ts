import { apiPost } from '@kabari/shared/api/api-client';
import type { Locale } from '@kabari/shared/i18n/locale';
import type { LocationRequest } from '@kabari/shared/requests/location-request';
import { sendOutcomeOf, type SendOutcome } from '../../lib/send-limit';

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
