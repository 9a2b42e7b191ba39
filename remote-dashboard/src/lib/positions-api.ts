import { apiGet } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import type { Position } from '@kabari/shared/requests/location-request';

/** GET /api/v1/requests/{id}/positions: what the recipient shared, oldest first (owner only). */
export async function fetchPositions(requestId: string): Promise<Position[]> {
  const data = await apiGet<ApiData<'/api/v1/requests/{id}/positions', 'get'>>(
    `/api/v1/requests/${encodeURIComponent(requestId)}/positions`,
    {
      toastErrors: false,
    },
  );
  return data.items;
}
