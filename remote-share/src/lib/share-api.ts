// The recipient's calls (docs/api-v1.md, consent). Plain fetch, not the shared axios client: this page opens
// from an SMS on a phone and must stay light, and it needs none of the client's session handling.

import type { ApiBody, ApiData } from '@kabari/shared/api/api-types';

export type LinkInfo = ApiData<'/api/v1/share/links/{token}', 'get'>;
export type LinkState = LinkInfo['state'];
export type MapViewsSeen = ApiData<'/api/v1/share/links/{token}/views', 'get'>;
type Consent = ApiData<'/api/v1/share/links/{token}/consent', 'post'>;
export type SharedPosition = NonNullable<Consent['approximate']>;
type LivePageEndReason = NonNullable<ApiBody<'/api/v1/share/links/{token}/live/end', 'post'>['reason']>;
export type ReportReason = ApiBody<'/api/v1/share/links/{token}/report', 'post'>['reason'];

export class ShareApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ShareApiError';
  }
}

async function call<T>(token: string, action: string, body?: unknown, locale?: string): Promise<T> {
  // A recording goes as it is, in its own type; anything else as JSON.
  const audio = body instanceof Blob ? body : null;
  const headers: Record<string, string> = locale ? { 'Accept-Language': locale } : {};
  if (body !== undefined)
    headers['Content-Type'] = audio ? audio.type || 'application/octet-stream' : 'application/json';
  const response = await fetch(`/api/v1/share/links/${encodeURIComponent(token)}${action}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : (audio ?? JSON.stringify(body)),
  });
  const envelope = (await response.json().catch(() => null)) as { message?: string; data?: T } | null;
  if (!response.ok || !envelope) throw new ShareApiError(response.status, envelope?.message ?? response.statusText);
  return envelope.data as T;
}

export const shareApi = {
  link: (token: string) => call<LinkInfo>(token, ''),
  /** When the requester last looked at the shared position, and each time they opened the map in the last day. */
  views: (token: string) => call<MapViewsSeen>(token, '/views'),
  consent: (token: string) => call<Consent>(token, '/consent', {}),
  position: (token: string, position: { latitude: number; longitude: number; accuracy: number; recordedAt: string }) =>
    call<ApiData<'/api/v1/share/links/{token}/positions', 'post'>>(token, '/positions', position),
  live: (token: string, minutes: 15 | 60 | 480) =>
    call<ApiData<'/api/v1/share/links/{token}/live', 'post'>>(token, '/live', { minutes }),
  /** Ends the live window `liveUntil` before its time (the watch ended early, for `reason`); consent stays. */
  endLive: (token: string, liveUntil: string, reason: LivePageEndReason) =>
    call<ApiData<'/api/v1/share/links/{token}/live/end', 'post'>>(token, '/live/end', { liveUntil, reason }),
  /** The live page is still open (once a minute): answers the window open now, null when none is. */
  liveHeard: (token: string, liveUntil: string) =>
    call<ApiData<'/api/v1/share/links/{token}/live/heard', 'post'>>(token, '/live/heard', { liveUntil }),
  stop: (token: string) => call<ApiData<'/api/v1/share/links/{token}/stop', 'post'>>(token, '/stop', {}),
  decline: (token: string) => call<ApiData<'/api/v1/share/links/{token}/decline', 'post'>>(token, '/decline', {}),
  withdraw: (token: string) => call<ApiData<'/api/v1/share/links/{token}/withdraw', 'post'>>(token, '/withdraw', {}),
  optOut: (token: string) => call<ApiData<'/api/v1/share/links/{token}/opt-out', 'post'>>(token, '/opt-out', {}),
  /** A voice reply, while sharing: the recording itself; a refusal is worded in the page's language. */
  voiceReply: (token: string, audio: Blob, locale: string) =>
    call<ApiData<'/api/v1/share/links/{token}/voice-reply', 'post'>>(token, '/voice-reply', audio, locale),
  report: (token: string, reason: ReportReason, details: string) =>
    call<ApiData<'/api/v1/share/links/{token}/report', 'post'>>(token, '/report', { reason, details: details || null }),
};
