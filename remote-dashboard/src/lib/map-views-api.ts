import { apiPost } from '@kabari/shared/api/api-client';

/**
 * POST /api/v1/requests/{id}/views: the requester has the request's map open (`viewId`: the opening it continues).
 * The recipient's page shows when they last looked.
 */
export function recordMapView(requestId: string, viewId: number | undefined) {
  return apiPost('/api/v1/requests/{id}/views', viewId === undefined ? {} : { viewId }, {
    path: { id: requestId },
    toastErrors: false,
  });
}
