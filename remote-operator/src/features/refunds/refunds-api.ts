import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

export type RefundOwed = ApiData<'/api/v1/operator/refunds-owed', 'get'>['refunds'][number];

export async function fetchRefundsOwed(): Promise<RefundOwed[]> {
  return (await apiGet('/api/v1/operator/refunds-owed', consoleCall)).refunds;
}

/** A refund through the processor that took the payment. */
export function refund(id: string, note: string): Promise<unknown> {
  return apiPost('/api/v1/operator/refunds-owed/{id}/refund', { note }, { ...consoleCall, path: { id } });
}

/** A refund made elsewhere, recorded with its reference. */
export function markRefunded(id: string, reference: string, note: string): Promise<unknown> {
  return apiPost(
    '/api/v1/operator/refunds-owed/{id}/mark-refunded',
    { reference, note },
    { ...consoleCall, path: { id } },
  );
}
