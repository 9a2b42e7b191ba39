// Test helper: a location request as the API lists it, for the dashboard's tests.
import type { LocationRequest } from '@kabari/shared/requests/location-request';

/** An SMS request, sent and not yet opened; `changes` make it the request a test needs. */
export function locationRequest(changes: Partial<LocationRequest> = {}): LocationRequest {
  return {
    id: 'r1',
    channel: 'sms',
    target: '+6281234567890',
    title: null,
    url: null,
    status: 'pending',
    consent: 'none',
    delivery: 'sent',
    requestTime: '2026-11-22T04:00:00.000Z',
    openedTime: null,
    locatedTime: null,
    liveUntil: null,
    liveEnd: null,
    expiresAt: '2026-11-29T04:00:00.000Z',
    lastPosition: null,
    voiceNote: null,
    voiceReply: null,
    ...changes,
  };
}
