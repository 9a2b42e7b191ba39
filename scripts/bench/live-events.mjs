// Live events: from a position a recipient posts through the share route (POST /api/v1/share/links/:token/positions,
// as the consent page does while live sharing is on: the server geocodes it, stores it and publishes the event in
// the same transaction, and PostgreSQL's NOTIFY carries it to the instance's live-event hub) to the `position`
// event read from the requester's Server-Sent Events stream, with 1,000 and then 10,000 streams open on one server
// instance.
//
// It needs PostgreSQL's binaries (lib/postgres-cluster.mjs: a throwaway cluster on a free port, removed afterwards)
// and starts its own production server on that cluster, beside the one bench.mjs started on PGlite.
import { createHash } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fixed, median, table } from './lib/format.mjs';
import { startCluster } from './lib/postgres-cluster.mjs';
import { startServer } from './lib/server.mjs';

export const name = 'live-events';
export const key = 'liveEvents';
export const description =
  "recipient's position posted through the share route → event on the requester's SSE stream, p50/p99 with 1,000 and 10,000 streams open";
export const needsServer = false;

const WATCHER_COUNTS = [1000, 10_000];
/** Rounds at each level; the budgets take the median of their p99s. */
const ROUNDS = 3;
const SAMPLES = 300;
const WARM_UP = 30;

/**
 * The production server on the throwaway cluster, without the web app (the streams are the API's), logging warnings
 * only. Every stream comes from this one address: each gets an X-Forwarded-For of its own, as behind a proxy, so the
 * per-address rate limit sees 10,000 clients rather than one (the proxy trusted is this machine).
 * @param {import('./lib/context.mjs').BenchContext} context @param {string} databaseUrl
 */
function startKabari(context, databaseUrl) {
  return startServer({
    repoRoot: context.repoRoot,
    logFile: path.join(context.reportsDir, 'live-events-server.log'),
    onCleanup: context.onCleanup,
    log: context.log,
    env: { DATABASE_URL: databaseUrl, SERVE_WEB: 'false', LOG_LEVEL: 'warn', TRUST_PROXY: '127.0.0.1' },
  });
}

/**
 * One requester's open stream. Each sample's position carries an accuracy of its own: the bench waits for the
 * `position` event that carries it.
 * @param {string} url @param {string} token @param {number} index @param {Map<number, (at: number) => void>} waiting
 */
function openWatcher(url, token, index, waiting) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${url}/api/v1/locate/events`,
      {
        agent: false,
        headers: {
          accept: 'text/event-stream',
          cookie: `token=${token}`,
          'x-forwarded-for': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
        },
      },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream ${index} answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (/** @type {string} */ chunk) => {
          const at = performance.now();
          for (const match of chunk.matchAll(/^event: position\ndata: .*"accuracyMeters": ?(\d+)[,}]/gm)) {
            waiting.get(Number(match[1]))?.(at);
          }
        });
        resolve(request);
      },
    );
    request.on('error', reject);
  });
}

const postAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/**
 * What the consent page sends while live sharing is on: one position, from an address of its own (the share
 * routes throttle per address).
 * @param {string} url @param {string} linkToken @param {number} accuracy @param {number} index
 */
function postPosition(url, linkToken, accuracy, index) {
  const body = JSON.stringify({
    latitude: -6.2 + (index % 1000) / 100_000,
    longitude: 106.8,
    accuracy,
    recordedAt: new Date().toISOString(),
  });
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${url}/api/v1/share/links/${linkToken}/positions`,
      {
        method: 'POST',
        agent: postAgent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': `172.${16 + ((index >> 16) & 15)}.${(index >> 8) & 255}.${index & 255}`,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200 || !text.includes('"accepted":true')) {
            reject(new Error(`the position was not taken: ${response.statusCode} ${text.slice(0, 200)}`));
          } else resolve(undefined);
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const { default: pg } = await import('pg');
  const cluster = await startCluster(context);
  context.log(`live-events: throwaway PostgreSQL at ${cluster.url.replace(/\/\/[^@]*@/, '//')}`);
  /** @type {import('node:http').ClientRequest[]} */
  const streams = [];
  /** @type {Awaited<ReturnType<typeof startKabari>> | null} */
  let kabari = null;
  const client = new pg.Client({ connectionString: cluster.url });
  try {
    kabari = await startKabari(context, cluster.url);
    await client.connect();
    const total = Math.max(...WATCHER_COUNTS);
    // Requesters with a session each (the server only stores the token's sha256), made in bulk.
    await client.query(
      `insert into users (email, display_name, password_hash)
       select 'bench-' || i || '@bench.kabari.test', 'Bench ' || i, 'not-a-password-hash'
       from generate_series(1, $1) as i`,
      [total],
    );
    const tokens = Array.from({ length: total }, (_, i) => `bench-session-token-${String(i + 1).padStart(8, '0')}`);
    await client.query(
      `insert into sessions (user_id, token_hash, expires_at)
       select u.id, t.hash, now() + interval '1 day'
       from unnest($1::text[], $2::text[]) as t(email, hash) join users u on u.email = t.email`,
      [
        tokens.map((_, i) => `bench-${i + 1}@bench.kabari.test`),
        tokens.map((token) => createHash('sha256').update(token).digest('hex')),
      ],
    );
    // Each requester's request, answered and live-shared: its recipient posts positions through the link. The
    // server keeps only a token's sha256 (requests/request-tokens.ts); the bench knows the tokens it made.
    await client.query(
      `insert into location_requests (user_id, channel, token_hash, locale, status, consent, consented_at,
                                      decided_at, live_until, located_at, expires_at)
       select u.id, 'link',
              encode(sha256(convert_to('bench-link-' || substring(u.email from 'bench-(\\d+)@'), 'UTF8')), 'hex'),
              'en', 'gps_tracked', 'sharing', now(), now(), now() + interval '1 day', now(), now() + interval '1 day'
       from users u where u.email like 'bench-%'`,
    );

    /** @type {Map<number, (at: number) => void>} */
    const waiting = new Map();
    /** @type {Record<string, any>} */
    const results = {
      samplesPerLevel: SAMPLES,
      rounds: ROUNDS,
      cpu: `${os.cpus().length}× ${os.cpus()[0]?.model ?? '?'}`,
    };
    for (const count of WATCHER_COUNTS) {
      context.signal.throwIfAborted();
      const opening = performance.now();
      // Open the missing streams, a few hundred at a time.
      while (streams.length < count) {
        const batch = [];
        for (let i = streams.length; i < Math.min(count, streams.length + 250); i += 1) {
          batch.push(openWatcher(kabari.url, /** @type {string} */ (tokens[i]), i, waiting));
        }
        streams.push(...(await Promise.all(batch)));
      }
      context.log(`live-events: ${count} streams open (${Math.round(performance.now() - opening)} ms to open)`);

      /** @type {Array<{ p50Ms: number | null, p99Ms: number | null, maxMs: number | null, loadAverage: number }>} */
      const rounds = [];
      let sent = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        const latencies = [];
        // The first events of a level warm the server's code paths up: not counted.
        for (let sample = round === 0 ? -WARM_UP : 0; sample < SAMPLES; sample += 1) {
          context.signal.throwIfAborted();
          const index = Math.floor(Math.random() * count);
          sent += 1;
          // The marker the event is recognised by on the stream (whole metres, as the browser may report).
          const accuracy = 100_000 + sent + count;
          const received = new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`position ${accuracy} not received within 10 s`)), 10_000);
            waiting.set(accuracy, (at) => {
              clearTimeout(timer);
              resolve(at);
            });
          });
          const started = performance.now();
          await postPosition(kabari.url, `bench-link-${index + 1}`, accuracy, sent + count);
          const at = /** @type {number} */ (await received);
          waiting.delete(accuracy);
          if (sample >= 0) latencies.push(at - started);
        }
        latencies.sort((a, b) => a - b);
        rounds.push({
          p50Ms: fixed(median(latencies) ?? Number.NaN, 2),
          p99Ms: fixed(quantile(latencies, 0.99), 2),
          maxMs: fixed(latencies.at(-1) ?? Number.NaN, 2),
          loadAverage: os.loadavg()[0] ?? 0,
        });
      }
      const medianOf = (/** @type {'p50Ms' | 'p99Ms' | 'maxMs' | 'loadAverage'} */ key) =>
        fixed(median(rounds.map((round) => round[key])) ?? Number.NaN, 2);
      results[String(count)] = {
        watchers: count,
        rounds,
        p50Ms: medianOf('p50Ms'),
        p99Ms: medianOf('p99Ms'),
        maxMs: medianOf('maxMs'),
        loadAverage: medianOf('loadAverage'),
      };
      context.log(
        `live-events: ${count} streams: p50 ${results[String(count)].p50Ms} ms, p99 ${results[String(count)].p99Ms} ms (medians of ${ROUNDS} rounds; p99 each round ${rounds.map((r) => r.p99Ms).join(', ')})`,
      );
    }
    return results;
  } finally {
    for (const stream of streams) stream.destroy();
    postAgent.destroy();
    await client.end().catch(() => undefined);
    await kabari?.stop();
    cluster.stop();
  }
}

/** @param {any} results */
export function format(results) {
  const rows = WATCHER_COUNTS.filter((count) => results[String(count)]).map((count) => {
    const level = results[String(count)];
    return [
      count,
      level.p50Ms,
      level.p99Ms,
      (level.rounds ?? []).map((/** @type {{ p99Ms: number }} */ round) => round.p99Ms).join(' '),
      level.maxMs,
      level.loadAverage,
    ];
  });
  return [
    `Live events (position posted through the share route → SSE stream, one instance on PostgreSQL, on ${results.cpu}):`,
    `medians of ${results.rounds} rounds of ${results.samplesPerLevel} positions at each level`,
    table(['streams open', 'p50 ms', 'p99 ms', 'p99 each round', 'max ms', 'load avg'], rows),
  ].join('\n');
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  const [quantileName, count] = budget.metric.split('@');
  const level = results?.[String(count)];
  if (!level) return null;
  return quantileName === 'p99' ? level.p99Ms : quantileName === 'p50' ? level.p50Ms : null;
}

/** Beside each budget's line: the CPU it ran on and the load average of its rounds. */
/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function circumstances(results, budget) {
  const level = results?.[String(budget.metric.split('@')[1])];
  return level ? `${results.cpu}, load average ${level.loadAverage}` : null;
}
