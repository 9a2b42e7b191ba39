// The recipient's calls (docs/api-v1.md, consent). Plain fetch, not the shared axios client: this page opens
// from an SMS on a phone and must stay light, and it needs none of the client's session handling.

import type { PlaceParts } from '@kabari/shared/geo/place-address';

export type LinkState = 'open' | 'sharing' | 'declined' | 'stopped' | 'withdrawn' | 'cancelled' | 'expired' | 'deleted';

export interface SharedPosition {
  source: 'ip' | 'gps';
  latitude: number;
  longitude: number;
  accuracyMeters: number | null;
  address: string | null;
  place?: PlaceParts | null;
}

export interface LinkInfo {
  requesterName: string;
  channel: 'sms' | 'email' | 'link';
  state: LinkState;
  expiresAt: string;
  liveUntil: string | null;
  canOptOut: boolean;
  shared: { approximate: boolean; precise: boolean };
}

export interface Attribution {
  text: string;
  url: string;
  license: string;
}

export type ReportReason = 'unknown_requester' | 'harassment' | 'stalking' | 'spam' | 'other';

export class ShareApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ShareApiError';
  }
}

async function call<T>(token: string, action: string, body?: unknown): Promise<T> {
  const response = await fetch(`/api/v1/share/links/${encodeURIComponent(token)}${action}`, {
    method: action ? 'POST' : 'GET',
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as { message?: string; data?: T } | null;
  if (!response.ok || !envelope) throw new ShareApiError(response.status, envelope?.message ?? response.statusText);
  return envelope.data as T;
}

export const shareApi = {
  link: (token: string) => call<LinkInfo>(token, ''),
  consent: (token: string) =>
    call<{ state: LinkState; approximate: SharedPosition | null; attribution: Attribution }>(token, '/consent', {}),
  position: (token: string, position: { latitude: number; longitude: number; accuracy: number; recordedAt: string }) =>
    call<{ accepted: boolean; liveUntil: string | null }>(token, '/positions', position),
  live: (token: string, minutes: 15 | 60 | 480) => call<{ liveUntil: string }>(token, '/live', { minutes }),
  /** Ends the live window `liveUntil` before its time (the watch ended early); consent stays. */
  endLive: (token: string, liveUntil: string) => call<{ liveUntil: string | null }>(token, '/live/end', { liveUntil }),
  stop: (token: string) => call<{ state: LinkState }>(token, '/stop', {}),
  decline: (token: string) => call<{ state: LinkState }>(token, '/decline', {}),
  withdraw: (token: string) => call<{ state: LinkState }>(token, '/withdraw', {}),
  optOut: (token: string) => call<{ optedOut: true }>(token, '/opt-out', {}),
  report: (token: string, reason: ReportReason, details: string) =>
    call<{ id: string }>(token, '/report', { reason, details: details || null }),
};
