import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

/** An outgoing message that failed for good; its recipient masked. */
export type FailedMessage = ApiData<'/api/v1/operator/failed-messages', 'get'>['messages'][number];

export async function fetchFailedMessages(): Promise<FailedMessage[]> {
  return (await apiGet('/api/v1/operator/failed-messages', consoleCall)).messages;
}

export function retryMessage(id: string): Promise<unknown> {
  return apiPost('/api/v1/operator/failed-messages/{id}/retry', undefined, { ...consoleCall, path: { id } });
}
