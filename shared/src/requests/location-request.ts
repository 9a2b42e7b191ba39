// The shapes of docs/api-v1.md (location requests, consent) the apps read.

import type { PlaceParts } from '../geo/place-address';

export type RequestChannel = 'sms' | 'email' | 'link';
export type RequestStatus = 'pending' | 'ip_located' | 'gps_tracked';
export type ConsentState = 'none' | 'declined' | 'sharing' | 'stopped' | 'withdrawn' | 'cancelled';
/** 'outbox': no SMS/email provider is configured, the message stays in the local outbox and is not sent. */
export type DeliveryState = 'queued' | 'sent' | 'failed' | 'outbox';

export interface Position {
  /** The server sends a number; only ever compared, never computed with. */
  id: number | string;
  source: 'ip' | 'gps';
  latitude: number;
  longitude: number;
  accuracyMeters: number | null;
  /** English text; write `place` in the reader's language instead when present (positionAddress). */
  address: string | null;
  /** The address's parts; absent or null on positions stored before them. */
  place?: PlaceParts | null;
  recordedAt: string;
}

export interface LocationRequest {
  id: string;
  channel: RequestChannel;
  /** The number (E.164) or email; null for a link. */
  target: string | null;
  /** A link's title; null for a message. */
  title: string | null;
  /** The consent link: present for a link request. */
  url: string | null;
  status: RequestStatus;
  consent: ConsentState;
  delivery: DeliveryState | null;
  requestTime: string;
  openedTime: string | null;
  locatedTime: string | null;
  liveUntil: string | null;
  expiresAt: string | null;
  lastPosition: Position | null;
}

/** GET /api/v1/numbers/lookup: numbering-plan facts only; an unknown fact is null. */
export interface NumberLookup {
  e164: string;
  valid: boolean;
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  carrier: string | null;
  timeZones: string[] | null;
  lineType: string | null;
  /** Whether Kabari sends SMS to the number's country (the server's SMS_COUNTRIES). */
  smsAllowed?: boolean;
  /** When it does not: why and what to use instead, in the language asked for. */
  smsRefusal?: string;
}
