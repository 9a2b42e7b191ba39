import { apiGet } from '@kabari/shared/api/api-client';
import type { Position } from '@kabari/shared/requests/location-request';

/** GET /api/v1/requests/{id}/positions: what the recipient shared, oldest first (owner only). */
export async function fetchPositions(requestId: string): Promise<Position[]> {
  const data = await apiGet('/api/v1/requests/{id}/positions', { path: { id: requestId }, toastErrors: false });
  return data.items;
}
