import { apiGet, apiPost, apiClient } from '@kabari/shared/api/api-client';
import type { LocationRequest } from '@kabari/shared/requests/location-request';

export interface RequestPage {
  items: LocationRequest[];
  total: number;
  page: number;
  pageSize: number;
}

/** GET /api/v1/requests: the signed-in user's requests, newest first. */
export function fetchRequests(page: number, pageSize: number): Promise<RequestPage> {
  return apiGet<RequestPage>('/api/v1/requests', { params: { page, pageSize } });
}

/** DELETE /api/v1/requests/{id}: the request and every position it received. */
export async function deleteRequest(id: string): Promise<void> {
  await apiClient.delete(`/api/v1/requests/${encodeURIComponent(id)}`);
}

/**
 * POST /api/v1/requests/{id}/cancel (any channel): its link stops working at once. `cancelled` is false when the
 * request had already ended and the server changed nothing.
 */
export function cancelRequest(id: string): Promise<{ request: LocationRequest; cancelled: boolean }> {
  return apiPost<{ request: LocationRequest; cancelled: boolean }>(`/api/v1/requests/${encodeURIComponent(id)}/cancel`);
}
