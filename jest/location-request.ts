// Test helper: a location request as the API lists it, for the dashboard's tests.
import type { LocationRequest } from '@kabari/shared/requests/location-request';

/**
 * An SMS request, sent and not yet opened; `changes` make it the request a test needs. It expires a week after the
 * test runs, so it is still open (and cancellable) whatever the day: a fixed date here ran out on that day's morning.
 */
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
    deliveryFailure: null,
    whatsapp: null,
    requestTime: '2026-11-22T04:00:00.000Z',
    openedTime: null,
    locatedTime: null,
    liveUntil: null,
    liveEnd: null,
    expiresAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString(),
    lastPosition: null,
    voiceNote: null,
    voiceReply: null,
    ...changes,
  };
}
