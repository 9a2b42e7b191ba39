import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { markSharedHere, sharedHere } from '../../src/web/shared-here';

const secret = Buffer.alloc(32, 7);

/** An app that marks a browser for a token, and says whether a request comes from the browser so marked. */
async function app(publicUrl: string) {
  const server = Fastify();
  await server.register(cookie);
  server.post<{ Params: { token: string } }>('/shared/:token', async (request, reply) => {
    markSharedHere(reply, secret, request.params.token, publicUrl);
    return 'ok';
  });
  server.get<{ Params: { token: string } }>('/here/:token', async (request) =>
    sharedHere(request, secret, request.params.token),
  );
  return server;
}

describe('the note that this browser shared through a link', () => {
  it('is an HttpOnly cookie that names nothing, for ten minutes, Secure over HTTPS', async () => {
    const plain = await app('http://localhost:3000');
    const [overHttp] = (await plain.inject({ method: 'POST', url: '/shared/t' })).cookies;
    expect(overHttp!.secure).toBeUndefined();
    await plain.close();
    const server = await app('https://kabari.example');
    const answer = await server.inject({ method: 'POST', url: '/shared/the-links-token' });
    const [set] = answer.cookies;
    expect(set).toMatchObject({ name: 'kabari-shared-here', path: '/', httpOnly: true, secure: true, maxAge: 600 });
    expect(set!.sameSite).toBe('Lax');
    expect(set!.value).not.toContain('the-links-token');
    await server.close();
  });

  it('is recognised for its own token only', async () => {
    const server = await app('http://localhost:3000');
    const [set] = (await server.inject({ method: 'POST', url: '/shared/token-a' })).cookies;
    const here = async (token: string, value: string | undefined) =>
      (
        await server.inject({
          url: `/here/${token}`,
          cookies: value === undefined ? {} : { 'kabari-shared-here': value },
        })
      ).json();
    expect(await here('token-a', set!.value)).toBe(true);
    expect(await here('token-b', set!.value)).toBe(false);
    expect(await here('token-a', undefined)).toBe(false);
    expect(await here('token-a', 'forged')).toBe(false);
    expect(await here('token-a', `${set!.value.slice(0, -1)}x`)).toBe(false);
    await server.close();
  });
});
