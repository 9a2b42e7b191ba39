// The reference the app's throughput is compared with: a bare Fastify server (no plugins, no logger, no database,
// no checks) in a process of its own on the port given as the first argument. The second argument is a JSON file of
// the answers to give, one per path, each as the production server gave it to the bench (lib/answer-of.mjs): the
// same status, headers and body bytes, so that the ratio measures the work behind an answer and not its size. The
// request id is the one header that differs per answer: a fresh one each time, as the production server makes it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import Fastify from 'fastify';

/** @type {Array<{ path: string, statusCode: number, headers: Record<string, string | string[]>, body: string }>} */
const answers = JSON.parse(fs.readFileSync(process.argv[3] ?? '', 'utf8'));
const app = Fastify({ logger: false });
for (const answer of answers) {
  const body = Buffer.from(answer.body, 'base64');
  const { 'x-request-id': requestId, ...headers } = answer.headers;
  app.get(answer.path, (_request, reply) => {
    reply.code(answer.statusCode).headers(headers);
    if (requestId !== undefined) reply.header('x-request-id', randomUUID());
    reply.send(body);
  });
}
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
