// One answer of a server as a load generator receives it (no Accept-Encoding, as autocannon sends none): status,
// headers and the body's bytes. The bare server (bare-fastify.mjs) gives the same answer back, so that it sends
// exactly what the production server sends for that route.
import http from 'node:http';

// Set by Node's HTTP server on every answer, and by each server for itself: not part of what is copied.
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * @param {string} url @param {Record<string, string>} [headers]
 * @returns {Promise<{ statusCode: number, headers: Record<string, string | string[]>, body: string }>} body in base64
 */
export function answerOf(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent: false }, (response) => {
      /** @type {Buffer[]} */
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        /** @type {Record<string, string | string[]>} */
        const kept = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value === undefined || PER_CONNECTION.has(name)) continue;
          kept[name] = value;
        }
        resolve({
          statusCode: response.statusCode ?? 0,
          headers: kept,
          body: Buffer.concat(chunks).toString('base64'),
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}
