import { ApiError } from '@kabari/shared/api/api-error';
import { apiGet } from '@kabari/shared/api/api-client';
import { fetchSubscriptionInfo, isExpired } from './subscription-info';

jest.mock('@kabari/shared/api/api-client', () => ({ apiGet: jest.fn() }));

const getMock = apiGet as jest.MockedFunction<typeof apiGet>;

describe('subscription info', () => {
  beforeEach(() => getMock.mockReset());

  it('reads GET /api/v1/personnal/subscribe/info, handling its 404 itself', async () => {
    getMock.mockResolvedValue({ expiredStatus: 1 });
    await expect(fetchSubscriptionInfo()).resolves.toEqual({ expiredStatus: 1 });
    expect(getMock).toHaveBeenCalledWith('/api/v1/personnal/subscribe/info', { handledStatuses: [404] });
  });

  it('takes a 404 (the account has no subscription) as nothing known', async () => {
    getMock.mockRejectedValue(new ApiError('Not found', 404));
    await expect(fetchSubscriptionInfo()).resolves.toBeNull();
  });

  it('passes other failures on (the API client has already dealt with them)', async () => {
    getMock.mockRejectedValue(new ApiError('Login expired', 401));
    await expect(fetchSubscriptionInfo()).rejects.toEqual(expect.objectContaining({ status: 401 }));
  });

  it('is expired only for expiredStatus 1', () => {
    expect(isExpired({ expiredStatus: 1 })).toBe(true);
    expect(isExpired({ expiredStatus: 0 })).toBe(false);
    expect(isExpired(null)).toBe(false);
  });
});
