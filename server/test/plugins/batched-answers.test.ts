import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import batchedAnswers from '../../src/plugins/batched-answers';

describe('answers leave at the end of the event loop’s turn', () => {
  let app: FastifyInstance;
  const events: string[] = [];
  let endedAtOnce: boolean | undefined;

  beforeAll(async () => {
    app = Fastify();
    await app.register(batchedAnswers);
    app.get('/:name', (request, reply) => {
      const { name } = request.params as { name: string };
      events.push(`handled ${name}`);
      const end = reply.raw.end.bind(reply.raw);
      reply.raw.end = ((...args: Parameters<typeof end>) => {
        events.push(`written ${name}`);
        return end(...args);
      }) as typeof reply.raw.end;
      reply.send({ name });
      endedAtOnce = reply.raw.writableEnded;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => {
    events.length = 0;
    endedAtOnce = undefined;
  });

  it('sends the answer, just not in the same breath as the handler', async () => {
    const address = app.server.address() as net.AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${address.port}/one`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ name: 'one' });
    expect(endedAtOnce).toBe(false);
  });

  it('handles the requests that arrived together before writing their answers, then writes them in order', async () => {
    const address = app.server.address() as net.AddressInfo;
    const received = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(address.port, '127.0.0.1');
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if ((text.match(/HTTP\/1\.1 200/g) ?? []).length === 2 && text.endsWith('{"name":"b"}')) {
          socket.end();
          resolve(text);
        }
      });
      socket.on('error', reject);
      // Two requests in one packet: the server reads both in one turn.
      socket.write('GET /a HTTP/1.1\r\nHost: localhost\r\n\r\nGET /b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });
    expect(received.indexOf('{"name":"a"}')).toBeLessThan(received.indexOf('{"name":"b"}'));
    expect(events).toEqual(['handled a', 'handled b', 'written a', 'written b']);
  });
});
