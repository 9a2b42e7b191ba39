import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { loggerOptions, requestIdFor } from '../src/app';
import { loadConfig } from '../src/config';
import { HttpError } from '../src/lib/envelope';
import { inputMessage } from '../src/lib/messages';
import { buildTestApp, type TestApp } from './support/test-app';

describe('the app', () => {
  let testApp: TestApp;
  const logLines: string[] = [];

  beforeAll(async () => {
    const config = loadConfig({ LOG_LEVEL: 'info' });
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        logLines.push(String(chunk));
        callback();
      },
    });
    testApp = await buildTestApp(
      'pglite',
      { REMOTE_SHARE_URL: 'https://cdn.example.com/share/mf-manifest.json' },
      {
        logger: { ...(loggerOptions(config) as object), stream },
        beforeReady: (app) => {
          app.post(
            '/api/test/echo',
            {
              schema: {
                body: z.object({ email: z.string().regex(/^\S+@\S+\.\S+$/, inputMessage('common.enterValidEmail')) }),
              },
            },
            async (request) => ({ status: 200, message: 'ok', data: request.body }),
          );
          app.get('/api/test/boom', async () => {
            throw new Error('connection string postgres://secret@db');
          });
          app.get('/api/test/teapot', async () => {
            throw new HttpError(418, 'I am a teapot', { 'retry-after': '7' });
          });
          app.post('/api/test/log', async (request) => {
            request.log.info({ body: request.body }, 'logging a body');
            return { status: 200, message: 'ok', data: null };
          });
          app.get('/api/test/limited', { config: { rateLimit: { max: 1, timeWindow: '1 minute' } } }, async () => ({
            status: 200,
            message: 'ok',
            data: null,
          }));
        },
      },
    );
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('answers success in the envelope', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'a@b.co' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: 'ok', data: { email: 'a@b.co' } });
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/v1/nothing-here?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: 404, message: 'Not found: GET /api/v1/nothing-here', data: null });
  });

  it('answers invalid input with a 400 envelope naming the field', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/test/echo', payload: { email: 'nope' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ status: 400, message: 'email: Enter valid email address', data: null });
  });

  it('answers a missing body and malformed JSON with 400 envelopes', async () => {
    const missing = await testApp.app.inject({ method: 'POST', url: '/api/test/echo' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ status: 400, data: null });
    expect(missing.json().message).toMatch(/body/);

    const malformed = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ status: 400, data: null });
  });

  it('hides the details of a 500 from the client but logs them', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ status: 500, message: 'Internal Server Error', data: null });
    expect(response.body).not.toContain('secret');
    expect(logLines.join('')).toContain('connection string postgres://secret@db');
  });

  it('answers in the language the app asks for (Accept-Language)', async () => {
    const id = { 'accept-language': 'id' };
    const invalid = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: id,
      payload: { email: 'nope' },
    });
    expect(invalid.json()).toEqual({ status: 400, message: 'Masukkan alamat email yang valid', data: null });
    const unknown = await testApp.app.inject({ method: 'GET', url: '/api/v1/nothing-here', headers: id });
    expect(unknown.json().message).toBe('Tidak ditemukan: GET /api/v1/nothing-here');
    const failed = await testApp.app.inject({ method: 'GET', url: '/api/test/boom', headers: id });
    expect(failed.json()).toEqual({ status: 500, message: 'Terjadi kesalahan pada server', data: null });
    const english = await testApp.app.inject({
      method: 'GET',
      url: '/api/test/boom',
      headers: { 'accept-language': 'en-GB,en;q=0.8' },
    });
    expect(english.json().message).toBe('Internal Server Error');
  });

  it('passes on the message and headers of a deliberate 4xx', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/test/teapot' });
    expect(response.statusCode).toBe(418);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json()).toEqual({ status: 418, message: 'I am a teapot', data: null });
  });

  it('answers too many requests with a 429 envelope that says when to retry; answers within the limit do not name it', async () => {
    const first = await testApp.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.9.9.9' });
    expect(first.statusCode).toBe(200);
    expect(Object.keys(first.headers).filter((name) => name.startsWith('x-ratelimit'))).toEqual([]);
    const second = await testApp.app.inject({ method: 'GET', url: '/api/test/limited', remoteAddress: '10.9.9.9' });
    expect(second.statusCode).toBe(429);
    expect(second.json()).toMatchObject({ status: 429, data: null });
    expect(second.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds?\.$/);
    expect(second.headers['retry-after']).toMatch(/^\d+$/);
    expect(second.headers['x-ratelimit-limit']).toBe('1');
  });

  it('keeps a sane incoming request id and replaces anything else', async () => {
    const kept = await testApp.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'lb-1234.abc' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    const replaced = await testApp.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id\u0000<script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdFor({ headers: {} } as never)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('redacts secrets from the logs', async () => {
    await testApp.app.inject({
      method: 'POST',
      url: '/api/test/log',
      payload: { email: 'x@y.z', password: 'hunter2', verificationCode: '123456', cardNumber: '4242424242424242' },
      headers: { authorization: 'Bearer very-secret-token' },
    });
    const logs = logLines.join('');
    expect(logs).toContain('logging a body');
    expect(logs).not.toContain('hunter2');
    expect(logs).not.toContain('123456');
    expect(logs).not.toContain('4242424242424242');
    expect(logs).not.toContain('very-secret-token');
  });

  it('logs requests without a query string, a share token in the path or the full client address', async () => {
    const token = 'Zm9yLXRoZS1sb2ctdGVzdC1vbmx5LXRva2Vu';
    const visits = [
      { url: `/api/v1/share/links/${token}/consent?from=sms`, remoteAddress: '203.0.113.77' },
      { url: `/enter-link?token=${token}&source=sms#top`, remoteAddress: '198.51.100.23' },
      { url: `/id/share/?t=${token}`, remoteAddress: '2001:db8:1234:5678::9' },
      { url: '/api/v1/requests/limit?channel=sms&number=%2B6281234567890', remoteAddress: '::ffff:192.0.2.55' },
    ];
    // POST: a read that succeeded is logged at debug only, and this app's logger is at info.
    for (const visit of visits) await testApp.app.inject({ method: 'POST', ...visit });
    const logs = logLines.join('');
    expect(logs).toContain('/api/v1/share/links/[token]/consent');
    expect(logs).toContain('"/enter-link"');
    expect(logs).toContain('"/id/share/"');
    expect(logs).toContain('"/api/v1/requests/limit"');
    for (const secret of [token, 'from=sms', 'source=sms', '6281234567890', '?']) {
      expect(logs.split('\n').filter((line) => line.includes('"url"') && line.includes(secret))).toEqual([]);
    }
    for (const address of ['203.0.113.77', '198.51.100.23', '2001:db8:1234:5678', '192.0.2.55']) {
      expect(logs).not.toContain(address);
    }
    // Enough to tell networks apart when something goes wrong, not enough to name a subscriber's line.
    for (const network of ['203.0.113.0', '198.51.100.0', '2001:db8:1234::', '192.0.2.0']) {
      expect(logs).toContain(`"remoteAddress":"${network}"`);
    }
  });

  it('logs one line per answered request, with its status and time; reads that succeeded only at debug', async () => {
    logLines.length = 0;
    await testApp.app.inject({ method: 'GET', url: '/api/v1/not-a-route', remoteAddress: '203.0.113.9' });
    await testApp.app.inject({ method: 'GET', url: '/runtime-config.json' });
    await testApp.app.inject({ method: 'GET', url: '/healthz' });
    await testApp.app.inject({ method: 'GET', url: '/readyz' });
    const lines = logLines
      .join('')
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { level: number; msg: string; req?: { url?: string }; [key: string]: unknown },
      );
    expect(lines.filter((line) => line.req?.url === '/api/v1/not-a-route')).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        req: { method: 'GET', url: '/api/v1/not-a-route', host: 'localhost:80', remoteAddress: '203.0.113.0' },
        res: { statusCode: 404 },
        responseTime: expect.any(Number),
      }),
    ]);
    expect(
      lines.filter((line) => ['/healthz', '/readyz', '/runtime-config.json'].includes(line.req?.url ?? '')),
    ).toEqual([]);
  });

  it('sets security headers, with the configured remote origins in the CSP', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/runtime-config.json' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://cdn.example.com");
    expect(csp).toContain("style-src 'self' 'unsafe-inline' https://cdn.example.com");
    expect(csp).toContain("img-src 'self' data: blob: https:");
    expect(csp).toContain("connect-src 'self' https://cdn.example.com");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('inflates a compressed request body, and leaves GET and HEAD routes without the hook that would', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ email: 'gzip@example.com' })),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ email: 'gzip@example.com' });
    const routes = testApp.app.printRoutes({ includeHooks: true, commonPrefix: false });
    /** The hooks printed under a route, up to the next route. */
    const hooksOf = (route: string) => {
      const start = routes.indexOf(route);
      expect(start).toBeGreaterThanOrEqual(0);
      const rest = routes.slice(start + route.length);
      const next = rest.search(/\/\S* \([A-Z]+\)/);
      return rest.slice(0, next === -1 ? undefined : next);
    };
    expect(hooksOf('/api/test/echo (POST)')).toContain('(preParsing)');
    expect(hooksOf('/api/test/teapot (GET)')).toContain('(onSend)');
    expect(hooksOf('/api/test/teapot (GET)')).not.toContain('(preParsing)');
    expect(hooksOf('/api/test/teapot (HEAD)')).not.toContain('(preParsing)');
  });

  it('compresses large JSON responses', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
  });

  describe('the OpenAPI document', () => {
    it('is published at /api/docs/json and lists the routes with their envelopes', async () => {
      const response = await testApp.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(response.statusCode).toBe(200);
      const document = response.json();
      expect(document.openapi).toMatch(/^3\./);
      expect(document.info.title).toBe('Kabari API');
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining([
          '/healthz',
          '/readyz',
          '/runtime-config.json',
          '/api/v1/auth/publicKey',
          '/api/v1/auth/login',
          '/api/v1/auth/sendCode',
          '/api/v1/auth/resetPassword',
          '/api/v1/auth/loginByAuthCode',
          '/api/v1/auth/logout',
          '/api/v1/auth/session',
          '/api/v1/locate/userAgent',
        ]),
      );
      const ready = document.paths['/readyz'].get.responses['200'].content['application/json'].schema;
      expect(Object.keys(ready.properties)).toEqual(['status', 'message', 'data']);
      const login = document.paths['/api/v1/auth/login'].post;
      expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
      expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '400', '429']));
      // Static file routes are not API.
      expect(Object.keys(document.paths).some((path) => path.includes('*'))).toBe(false);
    });

    it('has a browsable UI at /api/docs', async () => {
      const response = await testApp.app.inject({ method: 'GET', url: '/api/docs' });
      expect([200, 302]).toContain(response.statusCode);
      const page =
        response.statusCode === 302
          ? await testApp.app.inject({ method: 'GET', url: response.headers.location as string })
          : response;
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/swagger/i);
    });
  });
});
