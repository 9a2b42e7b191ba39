import { apiUrl, fetchApi } from './api-fetch';
import { ApiError } from './api-error';

interface Sent {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
}

// The server, answered here: what fetch was given is recorded, and each test says what comes back.
let sent: Sent[] = [];
function answer(status: number, body: unknown, statusText = '') {
  sent = [];
  global.fetch = jest.fn(async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method, headers: { ...(init.headers as Record<string, string>) }, body: init.body });
    return { ok: status >= 200 && status < 300, status, statusText, json: async () => body };
  }) as unknown as typeof fetch;
}

describe('the typed fetch core', () => {
  it('makes the URL of a path from its values, each encoded, and refuses a missing one', () => {
    expect(apiUrl('/api/v1/share/links/{token}/consent', { token: 'a b/../c' })).toBe(
      '/api/v1/share/links/a%20b%2F..%2Fc/consent',
    );
    expect(() => apiUrl('/api/v1/requests/{id}', {})).toThrow('/api/v1/requests/{id}: no value for {id}');
  });

  it('sends a body as JSON, a write without one as {}, and resolves with the envelope’s data', async () => {
    answer(200, { status: 200, message: 'ok', data: { liveUntil: '2030-01-01T10:15:00.000Z' } });
    const data = await fetchApi('post', '/api/v1/share/links/{token}/live', {
      path: { token: 'tok' },
      body: { minutes: 15 },
    });
    expect(data).toEqual({ liveUntil: '2030-01-01T10:15:00.000Z' });
    expect(sent[0]).toEqual({
      url: '/api/v1/share/links/tok/live',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"minutes":15}',
    });

    answer(200, { status: 200, message: 'ok', data: { state: 'stopped' } });
    await fetchApi('post', '/api/v1/share/links/{token}/stop', { path: { token: 'tok' } });
    expect(sent[0]?.body).toBe('{}');

    answer(200, { status: 200, message: 'ok', data: { state: 'stopped' } });
    await fetchApi('get', '/api/v1/share/links/{token}', { path: { token: 'tok' } });
    expect(sent[0]).toEqual({ url: '/api/v1/share/links/tok', method: 'GET', headers: {}, body: undefined });
  });

  it('sends an upload as it is, in its own type, with the headers asked for', async () => {
    answer(200, { status: 200, message: 'ok', data: { voiceReply: { durationMs: 1000, recordedTime: '10:00' } } });
    const audio = new Blob(['…'], { type: 'audio/webm' });
    await fetchApi('post', '/api/v1/share/links/{token}/voice-reply', {
      path: { token: 'tok' },
      body: audio,
      headers: { 'Accept-Language': 'id' },
    });
    expect(sent[0]?.headers).toEqual({ 'Accept-Language': 'id', 'Content-Type': 'audio/webm' });
    expect(sent[0]?.body).toBe(audio);
  });

  it('rejects a refusal with an ApiError: the HTTP status, the server’s message and data', async () => {
    answer(409, { status: 409, message: 'You are not sharing.', data: { state: 'stopped' } });
    const refused = fetchApi('post', '/api/v1/share/links/{token}/stop', { path: { token: 'tok' } });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({
      status: 409,
      message: 'You are not sharing.',
      data: { state: 'stopped' },
    });

    // An answer that is no envelope (a proxy's error page) says what HTTP said.
    answer(502, null, 'Bad Gateway');
    await expect(fetchApi('get', '/api/v1/share/links/{token}', { path: { token: 'tok' } })).rejects.toMatchObject({
      status: 502,
      message: 'Bad Gateway',
    });
  });
});
