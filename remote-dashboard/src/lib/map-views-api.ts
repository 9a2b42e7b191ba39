import { apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';

/**
 * POST /api/v1/requests/{id}/views: the requester has the request's map open (`viewId`: the opening it continues).
 * The recipient's page shows when they last looked.
 */
export function recordMapView(requestId: string, viewId: number | undefined) {
  return apiPost<ApiData<'/api/v1/requests/{id}/views', 'post'>>(
    `/api/v1/requests/${encodeURIComponent(requestId)}/views`,
    viewId === undefined ? {} : { viewId },
    { toastErrors: false },
  );
}
