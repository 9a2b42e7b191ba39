import { apiDelete, apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';

/** A page of the signed-in user's requests. */
export type RequestPage = ApiData<'/api/v1/requests', 'get'>;

/** GET /api/v1/requests: the signed-in user's requests, newest first. */
export function fetchRequests(page: number, pageSize: number): Promise<RequestPage> {
  return apiGet('/api/v1/requests', { params: { page, pageSize } });
}

/** DELETE /api/v1/requests/{id}: the request and every position it received. */
export async function deleteRequest(id: string): Promise<void> {
  await apiDelete('/api/v1/requests/{id}', { path: { id } });
}

/**
 * POST /api/v1/requests/{id}/cancel (any channel): its link stops working at once. `cancelled` is false when the
 * request had already ended and the server changed nothing.
 */
export function cancelRequest(id: string): Promise<ApiData<'/api/v1/requests/{id}/cancel', 'post'>> {
  return apiPost('/api/v1/requests/{id}/cancel', undefined, { path: { id } });
}
