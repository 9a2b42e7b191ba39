// The web tests' fake of the API answers at the HTTP seam: the real API client and the host's interceptors run.
import { apiGet, apiPost } from '@kabari/shared/api/api-client';
import { fetchApi } from '@kabari/shared/api/api-fetch';
import { isApiError } from '@kabari/shared/api/api-error';
import { fakeApi } from '../../../../jest/fake-api';

const attribution = { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com/', license: 'CC BY 4.0' };

describe('the fake API', () => {
  it('answers the API client with the envelope’s data, and records the call as the interceptors sent it', async () => {
    fakeApi.on('get', '/api/v1/locate/country', { countryCode: 'ID', attribution });
    await expect(apiGet('/api/v1/locate/country', { toastErrors: false })).resolves.toEqual({
      countryCode: 'ID',
      attribution,
    });
    const [call] = fakeApi.calls('get', '/api/v1/locate/country');
    expect(call?.headers).toMatchObject({ 'application-id': 'kabari-web', 'accept-language': 'en' });
    expect(call?.options).toEqual({ toastErrors: false });
  });

  it('answers a refusal as the server does: the interceptors toast it, the call rejects with an ApiError', async () => {
    fakeApi.on('post', '/api/v1/requests/{id}/cancel', fakeApi.fail(409, 'Already ended'));
    const error: unknown = await apiPost('/api/v1/requests/{id}/cancel', undefined, { path: { id: 'r 1' } }).catch(
      (refusal: unknown) => refusal,
    );
    expect(isApiError(error)).toBe(true);
    expect(error).toMatchObject({ status: 409, message: 'Already ended' });
    expect(fakeApi.effects.toastError).toHaveBeenCalledWith('Already ended');
    expect(fakeApi.calls('post', '/api/v1/requests/{id}/cancel').map((call) => call.path)).toEqual([{ id: 'r 1' }]);
  });

  it('answers plain fetch too, with the typed body recorded', async () => {
    fakeApi.on('post', '/api/v1/share/links/{token}/live', ({ minutes }) => ({
      liveUntil: new Date(Date.UTC(2026, 10, 24, 10, minutes)).toISOString(),
    }));
    await expect(
      fetchApi('post', '/api/v1/share/links/{token}/live', { path: { token: 'tok' }, body: { minutes: 15 } }),
    ).resolves.toEqual({ liveUntil: '2026-11-24T10:15:00.000Z' });
    expect(fakeApi.calls('post', '/api/v1/share/links/{token}/live')[0]?.body).toEqual({ minutes: 15 });
  });

  it('names a call nobody set an answer for, and fails the test with it', async () => {
    fakeApi.on('get', '/api/v1/requests', { items: [], total: 0, page: 1, pageSize: 10 });
    await expect(apiGet('/api/v1/requests/limit', { toastErrors: false })).rejects.toBeTruthy();
    expect(() => fakeApi.verify()).toThrow(
      'The fake API was called unexpectedly:\nGET /api/v1/requests/limit: no answer set for it (set one with fakeApi.on); answers set: GET /api/v1/requests',
    );
    // Said once: the test's own end finds nothing more to report.
    expect(() => fakeApi.verify()).not.toThrow();
  });
});
