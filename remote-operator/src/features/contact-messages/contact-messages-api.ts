import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiData, ApiQuery } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

type MessagesPage = ApiData<'/api/v1/operator/contact-messages', 'get'>;
export type ContactMessage = MessagesPage['messages'][number];
export type ContactFilter = NonNullable<ApiQuery<'/api/v1/operator/contact-messages', 'get'>['state']>;

/** The messages not answered yet ('open'), or those answered. */
export async function fetchContactMessages(state: ContactFilter): Promise<ContactMessage[]> {
  return (await apiGet('/api/v1/operator/contact-messages', { ...consoleCall, params: { state } })).messages;
}

export function markRead(id: string): Promise<unknown> {
  return apiPost('/api/v1/operator/contact-messages/{id}/read', undefined, { ...consoleCall, path: { id } });
}

export function markAnswered(id: string, note: string): Promise<unknown> {
  return apiPost('/api/v1/operator/contact-messages/{id}/answered', note ? { note } : {}, {
    ...consoleCall,
    path: { id },
  });
}
