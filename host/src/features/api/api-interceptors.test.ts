import axios, { type AxiosAdapter, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { ApiError } from '@kabari/shared/api/api-error';
import { installApiInterceptors, type ApiEffects } from './api-interceptors';

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An axios instance whose "server" answers from a script, recording every request it sees. */
function setUp(replies: Array<Reply | 'network-error'>) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const reply = replies.shift();
    if (!reply) throw new Error('no scripted reply left');
    if (reply === 'network-error') {
      throw Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK', config });
    }
    const response = { data: reply.body, status: reply.status, statusText: '', headers: reply.headers ?? {}, config };
    if (reply.status >= 400) {
      throw Object.assign(new Error(`Request failed with status code ${reply.status}`), {
        isAxiosError: true,
        config,
        response,
      });
    }
    return response;
  };
  const client: AxiosInstance = axios.create({ baseURL: '', adapter });
  const effects: jest.Mocked<ApiEffects> = {
    runtimeConfig: jest.fn(async () => ({ apiBaseUrl: 'https://api.kabari.test', appId: 'kabari-web' })),
    locale: jest.fn(() => 'id'),
    sessionExpired: jest.fn(),
    forbidden: jest.fn(),
    toastError: jest.fn(),
    toastNetworkError: jest.fn(),
    networkErrorMessage: jest.fn(() => 'Kabari tidak dapat dihubungi.'),
    wait: jest.fn(async (_ms: number) => undefined),
  };
  installApiInterceptors(client, effects);
  return { client, effects, seen };
}

const ok = (data: unknown): Reply => ({ status: 200, body: { status: 200, message: 'ok', data } });
const failure = (status: number, message: string): Reply => ({ status, body: { status, message, data: null } });

describe('API client interceptors', () => {
  it('sends the application id and the language, to the configured API base; no token (the cookie is the server’s)', async () => {
    const { client, seen } = setUp([ok(null)]);
    await client.get('/api/v1/auth/session');
    expect(seen[0]?.baseURL).toBe('https://api.kabari.test');
    expect(seen[0]?.headers.has('authorization')).toBe(false);
    expect(seen[0]?.headers.get('application-id')).toBe('kabari-web');
    expect(seen[0]?.headers.get('accept-language')).toBe('id');
  });

  it('keeps a header the caller set', async () => {
    const explicit = setUp([ok(null)]);
    await explicit.client.post('/api/v1/auth/logout', undefined, { headers: { authorization: 'old-token' } });
    expect(explicit.seen[0]?.headers.get('authorization')).toBe('old-token');
  });

  it("resolves with the envelope's data for 200–299", async () => {
    const { client } = setUp([ok({ token: 'abc' }), { status: 201, body: { status: 201, message: 'ok', data: 7 } }]);
    await expect(client.get('/a')).resolves.toEqual({ token: 'abc' });
    await expect(client.post('/b')).resolves.toBe(7);
  });

  it('resolves with the raw response when asked', async () => {
    const { client } = setUp([ok({ state: 2 })]);
    const response = await client.get('/api/v1/personnal/registerQuery/1', { raw: true });
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ status: 200, message: 'ok', data: { state: 2 } });
  });

  it('treats an envelope status of 400 or more as an error, whatever the HTTP status', async () => {
    const { client, effects } = setUp([{ status: 200, body: { status: 400, message: 'Bad input', data: null } }]);
    await expect(client.get('/a')).rejects.toEqual(expect.objectContaining({ status: 400, message: 'Bad input' }));
    expect(effects.toastError).toHaveBeenCalledWith('Bad input');
  });

  it('retries a GET once on a passing failure, then answers normally', async () => {
    const { client, seen, effects } = setUp([{ ...failure(503, 'Busy'), headers: { 'retry-after': '1' } }, ok(42)]);
    await expect(client.get('/a')).resolves.toBe(42);
    expect(seen).toHaveLength(2);
    expect(effects.wait).toHaveBeenCalledWith(1000);
    expect(effects.toastError).not.toHaveBeenCalled();
  });

  it('retries only once, then reports the failure once', async () => {
    const { client, seen, effects } = setUp([failure(502, 'Bad gateway'), failure(502, 'Bad gateway')]);
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
    expect(effects.toastError).toHaveBeenCalledTimes(1);
  });

  it('never retries a write', async () => {
    const { client, seen, effects } = setUp([failure(503, 'Internal Server Error')]);
    await expect(client.post('/api/v1/auth/login', {})).rejects.toEqual(expect.objectContaining({ status: 503 }));
    expect(seen).toHaveLength(1);
    expect(effects.wait).not.toHaveBeenCalled();
    expect(effects.toastError).toHaveBeenCalledWith('Internal Server Error');
  });

  it('on 401 ends the session (no error toast of its own)', async () => {
    const { client, effects } = setUp([failure(401, 'Login expired, please log in again.')]);
    await expect(client.get('/api/v1/auth/session')).rejects.toEqual(expect.objectContaining({ status: 401 }));
    expect(effects.sessionExpired).toHaveBeenCalledTimes(1);
    expect(effects.toastError).not.toHaveBeenCalled();
  });

  it("on the subscription's 403 goes to the expired state, for an HTTP 403 and an envelope 403 alike", async () => {
    const refusal = { refusal: 'subscription-needed' };
    const { client, effects } = setUp([
      { status: 403, body: { status: 403, message: 'An active subscription is needed.', data: refusal } },
      { status: 200, body: { status: 403, message: 'An active subscription is needed.', data: refusal } },
    ]);
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    await expect(client.post('/b')).rejects.toBeInstanceOf(ApiError);
    expect(effects.forbidden).toHaveBeenCalledTimes(2);
    expect(effects.toastError).not.toHaveBeenCalled();
  });

  it('says any other 403 (a suspended account, a cross-site refusal) instead of going to the expired state', async () => {
    const { client, effects } = setUp([failure(403, 'This account is suspended.'), { status: 403, body: 'Forbidden' }]);
    await expect(client.post('/a')).rejects.toEqual(expect.objectContaining({ status: 403 }));
    await expect(client.post('/b')).rejects.toEqual(expect.objectContaining({ status: 403 }));
    expect(effects.forbidden).not.toHaveBeenCalled();
    expect(effects.toastError.mock.calls).toEqual([['This account is suspended.'], [undefined]]);
  });

  it("toasts the server's message, or its error text", async () => {
    const { client, effects } = setUp([
      failure(400, 'Incorrect email or password.'),
      { status: 422, body: { error: 'Unprocessable' } },
      { status: 404, body: 'Not here' },
    ]);
    await expect(client.post('/a')).rejects.toBeInstanceOf(ApiError);
    await expect(client.post('/b')).rejects.toBeInstanceOf(ApiError);
    await expect(client.post('/c')).rejects.toBeInstanceOf(ApiError);
    expect(effects.toastError.mock.calls).toEqual([['Incorrect email or password.'], ['Unprocessable'], [undefined]]);
  });

  it('stays quiet for statuses the caller handles, and when the caller shows its own message', async () => {
    const { client, effects } = setUp([failure(404, 'Not found'), failure(429, 'Too many'), failure(401, 'Expired')]);
    await expect(client.get('/a', { handledStatuses: [404] })).rejects.toEqual(
      expect.objectContaining({ status: 404 }),
    );
    await expect(client.post('/b', {}, { toastErrors: false })).rejects.toEqual(
      expect.objectContaining({ status: 429, message: 'Too many' }),
    );
    // The session rule holds even for a caller with its own messages.
    await expect(client.post('/c', {}, { toastErrors: false })).rejects.toBeInstanceOf(ApiError);
    expect(effects.toastError).not.toHaveBeenCalled();
    expect(effects.sessionExpired).toHaveBeenCalledTimes(1);
  });

  it('says so when no answer comes at all, and does not retry it', async () => {
    const { client, effects, seen } = setUp(['network-error']);
    // Rejected with the sentence in the page's language, not the browser's English "Network Error".
    await expect(client.get('/a')).rejects.toEqual(
      expect.objectContaining({ status: undefined, message: 'Kabari tidak dapat dihubungi.' }),
    );
    expect(seen).toHaveLength(1);
    expect(effects.toastNetworkError).toHaveBeenCalledTimes(1);
  });

  it('says nothing about a request the caller cancelled', async () => {
    const { client, effects } = setUp([]);
    const controller = new AbortController();
    controller.abort();
    await expect(client.get('/a', { signal: controller.signal })).rejects.toEqual(
      expect.objectContaining({ code: 'ERR_CANCELED' }),
    );
    expect(effects.toastNetworkError).not.toHaveBeenCalled();
  });
});
