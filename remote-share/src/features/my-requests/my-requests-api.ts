// The consent overview's calls ("Who can see me", docs/api-v1.md), each named by its path in the server's OpenAPI
// document. Plain fetch (shared's fetchApi), like the other recipient pages: the session is an HttpOnly cookie the
// server sets and the browser sends only to these paths.

import { fetchApi } from '@kabari/shared/api/api-fetch';
import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';

export type ConsentOverview = ApiData<'/api/v1/my-requests', 'get'>;
export type OverviewRequest = ConsentOverview['requests'][number];
export type ReportReason = ApiBody<'/api/v1/my-requests/{id}/report', 'post'>['reason'];
export type RequestAction = 'decline' | 'stop' | 'withdraw';

/** Where Quick exit ends the session: a beacon survives the page being left at once. */
export const SESSION_END_PATH = '/api/v1/my-requests/session/end';

export const myRequestsApi = {
  sendCode: (address: string, locale: 'en' | 'id') =>
    fetchApi('post', '/api/v1/my-requests/code', { body: { address, locale }, headers: { 'Accept-Language': locale } }),
  enterCode: (address: string, code: string, locale: 'en' | 'id') =>
    fetchApi('post', '/api/v1/my-requests/session', {
      body: { address, code },
      headers: { 'Accept-Language': locale },
    }),
  overview: (locale: 'en' | 'id') => fetchApi('get', '/api/v1/my-requests', { headers: { 'Accept-Language': locale } }),
  act: (id: string, action: RequestAction) => {
    if (action === 'decline') return fetchApi('post', '/api/v1/my-requests/{id}/decline', { path: { id } });
    if (action === 'stop') return fetchApi('post', '/api/v1/my-requests/{id}/stop', { path: { id } });
    return fetchApi('post', '/api/v1/my-requests/{id}/withdraw', { path: { id } });
  },
  report: (id: string, reason: ReportReason) =>
    fetchApi('post', '/api/v1/my-requests/{id}/report', { path: { id }, body: { reason } }),
  stopEverything: () => fetchApi('post', '/api/v1/my-requests/stop-everything', {}),
  eraseEverything: () => fetchApi('post', '/api/v1/my-requests/erase-everything', {}),
  optOut: () => fetchApi('post', '/api/v1/my-requests/opt-out', {}),
};
