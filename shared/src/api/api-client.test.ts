import type { AxiosRequestConfig } from 'axios';
import { apiClient, apiDelete, apiGet, apiPost, apiRawGet } from './api-client';

// Every request is answered here, without a network: the adapter records what axios would have sent.
const sent: AxiosRequestConfig[] = [];
beforeEach(() => {
  sent.length = 0;
  apiClient.defaults.adapter = async (config) => {
    sent.push(config);
    return {
      data: { status: 200, message: 'ok', data: { ok: true } },
      status: 200,
      statusText: 'OK',
      headers: {},
      config,
    };
  };
});

describe('the API client, typed by path', () => {
  it('fills in the path’s placeholders, each value encoded', async () => {
    await apiPost('/api/v1/requests/{id}/cancel', undefined, { path: { id: 'a b/../c' } });
    expect(sent[0]?.url).toBe('/api/v1/requests/a%20b%2F..%2Fc/cancel');
    expect(sent[0]?.method).toBe('post');
  });

  it('refuses a call whose placeholder has no value, and sends nothing', async () => {
    const call = () =>
      apiGet('/api/v1/requests/{id}/positions', { path: {} as { id: string } }) as Promise<unknown> | undefined;
    expect(call).toThrow('/api/v1/requests/{id}/positions: no value for {id}');
    expect(sent).toEqual([]);
  });

  it('sends the query as parameters, the body as JSON, and axios’s own options', async () => {
    await apiGet('/api/v1/requests', { params: { page: 2, pageSize: 10 }, handledStatuses: [404] });
    expect(sent[0]).toEqual(
      expect.objectContaining({ url: '/api/v1/requests', params: { page: 2, pageSize: 10 }, handledStatuses: [404] }),
    );
    const preview = { channel: 'sms', templateId: 'check-in', note: '', locale: 'en' } as const;
    await apiPost('/api/v1/requests/preview', preview);
    expect(JSON.parse(String(sent[1]?.data))).toEqual(preview);
    expect(sent[1]).not.toHaveProperty('path');
  });

  it('deletes by path, and answers a raw GET with the whole response', async () => {
    await apiDelete('/api/v1/requests/{id}', { path: { id: 'r1' } });
    expect(sent[0]).toEqual(expect.objectContaining({ url: '/api/v1/requests/r1', method: 'delete' }));
    const response = await apiRawGet('/api/v1/personnal/registerQuery/{id}', { path: { id: 'reg-1' } });
    expect(sent[1]).toEqual(expect.objectContaining({ url: '/api/v1/personnal/registerQuery/reg-1', raw: true }));
    expect(response.status).toBe(200);
  });
});
