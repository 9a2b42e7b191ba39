import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import type { ApiData } from '@kabari/shared/api/api-types';
import { consoleCall } from '../../lib/session-api';

/** A page of reports, newest first, and the cursor of the next (older) page. */
export type ReportsPage = ApiData<'/api/v1/operator/reports', 'get'>;
export type ReportSummary = ReportsPage['reports'][number];
/** One report with the request it concerns and the requester's profile. */
export type ReportDetail = ApiData<'/api/v1/operator/reports/{id}', 'get'>;
export type ReportState = 'open' | 'closed';

export function fetchReports(state: ReportState, before: string | null): Promise<ReportsPage> {
  return apiGet('/api/v1/operator/reports', { ...consoleCall, params: before ? { state, before } : { state } });
}

export function fetchReport(id: string): Promise<ReportDetail> {
  return apiGet('/api/v1/operator/reports/{id}', { ...consoleCall, path: { id } });
}

/** The copy of the voice note the recipient heard, played from the console's own (cookie-limited) API path. */
export function voiceNoteUrl(reportId: string): string {
  return `/api/v1/operator/reports/${encodeURIComponent(reportId)}/voice-note`;
}

export type Decision = 'dismiss' | 'warn' | 'suspend';

export function decide(id: string, decision: Decision, note: string): Promise<unknown> {
  const options = { ...consoleCall, path: { id } };
  if (decision === 'dismiss') return apiPost('/api/v1/operator/reports/{id}/dismiss', { note }, options);
  if (decision === 'warn') return apiPost('/api/v1/operator/reports/{id}/warn', { note }, options);
  return apiPost('/api/v1/operator/reports/{id}/suspend', { note }, options);
}

export function liftSuspension(id: string, note: string): Promise<unknown> {
  return apiPost('/api/v1/operator/suspensions/{id}/lift', { note }, { ...consoleCall, path: { id } });
}
