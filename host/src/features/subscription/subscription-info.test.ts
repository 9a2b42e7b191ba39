import { fetchSubscriptionInfo, isExpired } from './subscription-info';
import { fakeApi } from '../../../../jest/fake-api';

const expired = {
  status: 'expired',
  expiredStatus: 1,
  validUntil: '2026-11-01T00:00:00.000Z',
  periodStart: '2026-10-02T00:00:00.000Z',
  nextPeriodPaid: false,
  nextDebitDay: null,
  amount: 49000,
  firstDayDebitAmount: 0,
  currencyCode: 'IDR',
  period: 30,
  provider: 'sandbox',
  sandbox: true,
  cancelledAt: null,
  createdAt: '2026-10-01T00:00:00.000Z',
  waitingPayment: null,
} as const;

describe('subscription info', () => {
  it('reads GET /api/v1/personnal/subscribe/info, handling its 404 itself', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', expired);
    await expect(fetchSubscriptionInfo()).resolves.toEqual(expired);
    const calls = fakeApi.calls('get', '/api/v1/personnal/subscribe/info');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.options).toEqual({ handledStatuses: [404] });
  });

  it('takes a 404 (the account has no subscription) as nothing known', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', fakeApi.fail(404, 'Not found'));
    await expect(fetchSubscriptionInfo()).resolves.toBeNull();
    expect(fakeApi.effects.toastError).not.toHaveBeenCalled();
  });

  it('passes other failures on (the API client has already dealt with them)', async () => {
    fakeApi.on('get', '/api/v1/personnal/subscribe/info', fakeApi.fail(401, 'Login expired'));
    await expect(fetchSubscriptionInfo()).rejects.toEqual(expect.objectContaining({ status: 401 }));
    expect(fakeApi.effects.sessionExpired).toHaveBeenCalledTimes(1);
  });

  it('is expired only for expiredStatus 1', () => {
    expect(isExpired({ expiredStatus: 1 })).toBe(true);
    expect(isExpired({ expiredStatus: 0 })).toBe(false);
    expect(isExpired(null)).toBe(false);
  });
});
