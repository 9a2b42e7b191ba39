// The recipient's calls (docs/api-v1.md, consent), each named by its path in the server's OpenAPI document, which
// gives its body and answer. Plain fetch (shared's fetchApi), not the shared axios client: this page opens from an
// SMS on a phone and must stay light, and it needs none of the client's session handling. A failed call rejects
// with shared's ApiError (its HTTP status and the server's message).

import { fetchApi } from '@kabari/shared/api/api-fetch';
import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';

export type LinkInfo = ApiData<'/api/v1/share/links/{token}', 'get'>;
export type LinkState = LinkInfo['state'];
export type MapViewsSeen = ApiData<'/api/v1/share/links/{token}/views', 'get'>;
type Consent = ApiData<'/api/v1/share/links/{token}/consent', 'post'>;
export type SharedPosition = NonNullable<Consent['approximate']>;
type LivePageEndReason = NonNullable<ApiBody<'/api/v1/share/links/{token}/live/end', 'post'>['reason']>;
export type ReportReason = ApiBody<'/api/v1/share/links/{token}/report', 'post'>['reason'];

export const shareApi = {
  link: (token: string) => fetchApi('get', '/api/v1/share/links/{token}', { path: { token } }),
  /** When the requester last looked at the shared position, and each time they opened the map in the last day. */
  views: (token: string) => fetchApi('get', '/api/v1/share/links/{token}/views', { path: { token } }),
  consent: (token: string) => fetchApi('post', '/api/v1/share/links/{token}/consent', { path: { token } }),
  position: (token: string, position: { latitude: number; longitude: number; accuracy: number; recordedAt: string }) =>
    fetchApi('post', '/api/v1/share/links/{token}/positions', { path: { token }, body: position }),
  live: (token: string, minutes: 15 | 60 | 480) =>
    fetchApi('post', '/api/v1/share/links/{token}/live', { path: { token }, body: { minutes } }),
  /** Ends the live window `liveUntil` before its time (the watch ended early, for `reason`); consent stays. */
  endLive: (token: string, liveUntil: string, reason: LivePageEndReason) =>
    fetchApi('post', '/api/v1/share/links/{token}/live/end', { path: { token }, body: { liveUntil, reason } }),
  /** The live page is still open (once a minute): answers the window open now, null when none is. */
  liveHeard: (token: string, liveUntil: string) =>
    fetchApi('post', '/api/v1/share/links/{token}/live/heard', { path: { token }, body: { liveUntil } }),
  stop: (token: string) => fetchApi('post', '/api/v1/share/links/{token}/stop', { path: { token } }),
  decline: (token: string) => fetchApi('post', '/api/v1/share/links/{token}/decline', { path: { token } }),
  withdraw: (token: string) => fetchApi('post', '/api/v1/share/links/{token}/withdraw', { path: { token } }),
  optOut: (token: string) => fetchApi('post', '/api/v1/share/links/{token}/opt-out', { path: { token } }),
  /** A voice reply, while sharing: the recording itself; a refusal is worded in the page's language. */
  voiceReply: (token: string, audio: Blob, locale: string) =>
    fetchApi('post', '/api/v1/share/links/{token}/voice-reply', {
      path: { token },
      body: audio,
      headers: { 'Accept-Language': locale },
    }),
  report: (token: string, reason: ReportReason, details: string) =>
    fetchApi('post', '/api/v1/share/links/{token}/report', {
      path: { token },
      body: { reason, details: details || null },
    }),
};
