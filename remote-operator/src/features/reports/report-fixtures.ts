// Test data: a report as the safety desk's routes answer it.
import type { ReportDetail, ReportSummary } from './reports-api';

export function reportSummary(id: string, overrides: Partial<ReportSummary> = {}): ReportSummary {
  return {
    id,
    createdAt: '2026-12-04T09:30:00.000Z',
    reason: 'harassment',
    state: 'open',
    outcome: null,
    requester: { id: 'user-1', displayName: 'Rina Wijaya' },
    ...overrides,
  };
}

export function reportDetail(overrides: { suspended?: boolean; state?: 'open' | 'closed' } = {}): ReportDetail {
  return {
    report: {
      id: 'report-1',
      createdAt: '2026-12-04T09:30:00.000Z',
      reason: 'harassment',
      details: 'Keeps sending me requests at night.',
      state: overrides.state ?? 'open',
      outcome: overrides.state === 'closed' ? 'suspended' : null,
      closedAt: null,
      operatorNote: null,
      voiceNote: { id: 'voice-1', durationMs: 12_000, text: null },
    },
    request: {
      id: 'request-1',
      channel: 'sms',
      maskedTarget: '+62 812-•••-•789',
      messageText: 'Where are you?',
      createdAt: '2026-12-04T09:00:00.000Z',
      openedAt: '2026-12-04T09:10:00.000Z',
      decidedAt: null,
      cancelledAt: null,
      expiresAt: '2026-12-05T09:00:00.000Z',
      status: 'ip_located',
      consent: 'none',
    },
    requester: {
      id: 'user-1',
      displayName: 'Rina Wijaya',
      createdAt: '2026-11-20T08:00:00.000Z',
      accountAgeDays: 14,
      country: 'ID',
      locale: 'id',
      requestsPerDay: [{ day: '2026-12-04', sms: 9, email: 1, link: 2 }],
      otherReports: [{ id: 'report-0', createdAt: '2026-12-01T10:00:00.000Z', reason: 'spam', state: 'closed' }],
      smsSpent: { today: 9, total: 24, todayMinor: 4500, totalMinor: 12000, currency: 'USD' },
      suspension: overrides.suspended
        ? { id: 'suspension-1', suspendedAt: '2026-12-04T10:00:00.000Z', note: 'Harassment', refundOwed: true }
        : null,
    },
  };
}
