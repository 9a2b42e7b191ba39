// The bench's load generator, run in a process of its own (`node load-generator.mjs '<json options>'`) so that the
// server it measures does not share a process, an event loop or a garbage collector with it. autocannon drives the
// load; each request comes from its own client address (X-Forwarded-For, believed by a server started with
// TRUST_PROXY=127.0.0.1), so the API's per-address limiter runs as in production without one client tripping it.
// With `paths`, requests go to each of them in turn (many recipients' links rather than one). Prints autocannon's
// result as one line of JSON.
import autocannon from 'autocannon';

/**
 * @type {{ url: string, connections: number, seconds: number, headers?: Record<string, string>, method?: string,
 *   body?: string, paths?: string[] }}
 */
const options = JSON.parse(process.argv[2] ?? '{}');
let sent = 0;
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  headers: { ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers },
  ...(options.method ? { method: /** @type {any} */ (options.method) } : {}),
  ...(options.body ? { body: options.body } : {}),
  requests: [
    {
      setupRequest: (request) => {
        sent += 1;
        const address = `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`;
        const path = options.paths ? options.paths[sent % options.paths.length] : request.path;
        return { ...request, path, headers: { ...request.headers, 'x-forwarded-for': address } };
      },
    },
  ],
});
process.stdout.write(`${JSON.stringify(result)}\n`);
