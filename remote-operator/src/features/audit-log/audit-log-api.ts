import { apiGet } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

/** A page of the audit log, newest first, and the cursor of the next (older) page. */
export type AuditLogPage = ApiData<'/api/v1/operator/audit-log', 'get'>;

export function fetchAuditLog(before: string | null): Promise<AuditLogPage> {
  return apiGet('/api/v1/operator/audit-log', { ...consoleCall, params: before ? { before } : {} });
}
