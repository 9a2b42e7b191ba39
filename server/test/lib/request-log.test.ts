import Fastify from 'fastify';
import { clientNetwork, loggableUrl, RequestLog, requestLoggerFactory } from '../../src/lib/request-log';

describe('clientNetwork', () => {
  it('cuts an IPv4 address to its /24 and an IPv6 address to its /48', () => {
    expect(clientNetwork('203.0.113.77')).toBe('203.0.113.0');
    expect(clientNetwork('0.0.0.0')).toBe('0.0.0.0');
    expect(clientNetwork('255.255.255.255')).toBe('255.255.255.0');
    expect(clientNetwork('::ffff:192.0.2.55')).toBe('192.0.2.0');
    expect(clientNetwork('2001:db8:1234:5678::9')).toBe('2001:db8:1234::');
  });

  it('reads other IPv4 notations as ipaddr.js does, and names anything else unknown', () => {
    // As inet_aton reads them: a leading zero is octal (010 is 8), and three parts are a.b.c with c 16 bits wide.
    expect(clientNetwork('010.1.2.3')).toBe('8.1.2.0');
    expect(clientNetwork('1.2.3')).toBe('1.2.0.0');
    expect(clientNetwork('256.1.2.3')).toBe('unknown');
    expect(clientNetwork('not an address')).toBe('unknown');
    expect(clientNetwork(undefined)).toBeUndefined();
  });
});

describe('loggableUrl', () => {
  it('keeps the path only, with a share token or sign-up id replaced by its name', () => {
    expect(loggableUrl('/api/v1/requests?channel=sms#top')).toBe('/api/v1/requests');
    expect(loggableUrl('/enter-link#t=abc?x=1')).toBe('/enter-link');
    expect(loggableUrl('/api/v1/share/links/c2VjcmV0/consent?from=sms')).toBe('/api/v1/share/links/[token]/consent');
    expect(loggableUrl('/api/v1/personnal/registerQuery/0b6d9c1e')).toBe('/api/v1/personnal/registerQuery/[id]');
    expect(loggableUrl('/')).toBe('/');
    expect(loggableUrl(undefined)).toBeUndefined();
  });
});

describe('requestLoggerFactory', () => {
  /** The app's logger, as Fastify makes it from options like the server's (pino, with a redaction). */
  function appLogger() {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
    const root = Fastify({
      logger: { level: 'info', redact: { paths: ['*.password'], censor: '[redacted]' }, stream },
    }).log;
    const child = jest.spyOn(root, 'child');
    return { root, lines, child };
  }

  it('makes the request its own logger only when the request logs', () => {
    const { root, lines, child } = appLogger();
    const quiet = requestLoggerFactory.call(undefined as never, root, { reqId: 'r-1' }, {}, undefined as never);
    expect(quiet.level).toBe('info');
    expect(child).not.toHaveBeenCalled();

    const talking = requestLoggerFactory.call(undefined as never, root, { reqId: 'r-2' }, {}, undefined as never);
    talking.info({ body: { email: 'ana@example.com', password: 'hunter2' } }, 'logging a body');
    talking.debug('below the level');
    talking.warn('twice');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({
        reqId: 'r-2',
        msg: 'logging a body',
        body: { email: 'ana@example.com', password: '[redacted]' },
      }),
      expect.objectContaining({ reqId: 'r-2', msg: 'twice', level: 40 }),
    ]);
  });

  it('keeps a route’s own level, and a level set on the request', () => {
    const { root, lines } = appLogger();
    const quietRoute = requestLoggerFactory.call(
      undefined as never,
      root,
      { reqId: 'r-3' },
      { level: 'warn' },
      undefined as never,
    );
    expect(quietRoute.level).toBe('warn');
    quietRoute.info('not written');
    quietRoute.level = 'debug';
    quietRoute.debug('written');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r-3', msg: 'written', level: 20 })]);
    expect(quietRoute.child({ job: 'x' }).level).toBe('debug');
  });
});

describe('RequestLog', () => {
  it('logs changes, refusals and failures at info, and the reads that succeeded and the health probes at debug', async () => {
    const lines: { level: number; msg: string; req?: { method: string; url: string }; res?: { statusCode: number } }[] =
      [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) };
    const app = Fastify({ logger: { level: 'debug', stream }, logController: new RequestLog() });
    app.get('/api/page', async () => ({ ok: true }));
    app.post('/api/page', async () => ({ ok: true }));
    app.get('/api/refused', async (_request, reply) => reply.code(401).send({ ok: false }));
    app.get('/healthz', async () => ({ ok: true }));
    try {
      await app.inject({ method: 'GET', url: '/api/page?q=1' });
      await app.inject({ method: 'HEAD', url: '/api/page' });
      await app.inject({ method: 'POST', url: '/api/page' });
      await app.inject({ method: 'GET', url: '/api/refused' });
      await app.inject({ method: 'GET', url: '/api/missing' });
      await app.inject({ method: 'GET', url: '/healthz' });
    } finally {
      await app.close();
    }
    const answered = lines
      .filter((line) => line.msg === 'request completed')
      .map((line) => [line.level, line.req?.method, line.res?.statusCode]);
    expect(answered).toEqual([
      [20, 'GET', 200],
      [20, 'HEAD', 200],
      [30, 'POST', 200],
      [30, 'GET', 401],
      [30, 'GET', 404],
      [20, 'GET', 200],
    ]);
  });
});
