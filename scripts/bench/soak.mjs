// The soak run: the product's whole loop (e2e/support/soak-loop.ts: sign-up and payment, a trackable link, the
// relative's consent, live sharing and positions on the requester's stream, history and map, Stop or Stop and
// erase, sign-out) at a steady rate for 30 minutes (`--soak-minutes`), against the production server on a throwaway
// PostgreSQL. Per minute: the server's resident memory, the database connections it holds, the p99 latency of its
// answers and of a position reaching the requester's stream. The first minutes warm the server up (JIT, caches,
// the connection pool) and are not compared; after them, memory and latency must stay flat, and the connections
// within the pool's bound. The end-to-end suite runs the same loop for 8 seconds, two families a second (e2e/tests/soak.spec.ts).
import path from 'node:path';
import { fixed, median, table } from './lib/format.mjs';
import { startCluster } from './lib/postgres-cluster.mjs';
import { startServer } from './lib/server.mjs';
import { loadE2eSupport } from './lib/e2e-support.mjs';

export const name = 'soak';
export const description =
  'the whole loop at a steady rate for 30 minutes unless --soak-minutes says otherwise on PostgreSQL: memory, p99 latency and database connections per minute';
export const needsServer = false;

const DEFAULT_MINUTES = 30;
const LOOPS_PER_SECOND = 3;
const WINDOW_SECONDS = 60;
/** Windows compared at each end of the run (medians, so that one garbage collection does not decide). */
const COMPARED = 3;

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const minutes = Number(context.options['soak-minutes'] ?? DEFAULT_MINUTES);
  if (!(minutes >= 3)) throw new Error(`--soak-minutes must be at least 3, got ${context.options['soak-minutes']}`);
  const outDir = path.join(context.reportsDir, 'soak');
  const support = await loadE2eSupport(context.repoRoot, outDir, ['soak-loop', 'subscriber', 'process-memory']);
  const { runSoakLoop } = support['soak-loop'];
  const { residentMegabytes, serverProcessOf } = support['process-memory'];
  const { default: pg } = await import('pg');
  const cluster = await startCluster(context);
  const watcher = new pg.Client({ connectionString: cluster.url });
  try {
    const server = await startServer({
      repoRoot: context.repoRoot,
      logFile: path.join(context.reportsDir, 'soak-server.log'),
      onCleanup: context.onCleanup,
      log: context.log,
      // As deployed behind a proxy: each family calls from addresses of its own.
      env: { DATABASE_URL: cluster.url, SERVE_WEB: 'false', TRUST_PROXY: '127.0.0.1' },
    });
    try {
      await watcher.connect();
      const serverPid = serverProcessOf(server.pid);
      if (serverPid === null) throw new Error('the server process was not found under /proc');
      const result = await runSoakLoop({
        baseURL: server.url,
        seconds: minutes * 60,
        loopsPerSecond: LOOPS_PER_SECOND,
        windowSeconds: WINDOW_SECONDS,
        signal: context.signal,
        sample: async () => {
          const { rows } = await watcher.query(
            // Client connections only: an autovacuum worker busy on this database is listed too.
            "select count(*)::int as connections from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'",
          );
          return { residentMegabytes: residentMegabytes(serverPid) ?? Number.NaN, connections: rows[0].connections };
        },
        onWindow: (/** @type {any} */ window) =>
          context.log(
            `soak: minute ${window.index + 1}/${minutes}: ${window.loopsCompleted} loops, ${window.requests} answers, ` +
              `${window.failures} failed, p99 ${fixed(window.latencyMs.p99, 0)} ms, event p99 ` +
              `${fixed(window.eventLatencyMs.p99, 0)} ms, ${fixed(window.sample.residentMegabytes, 0)} MB, ` +
              `${window.sample.connections} connections`,
          ),
      });
      return { minutes, loopsPerSecond: LOOPS_PER_SECOND, windowSeconds: WINDOW_SECONDS, ...result };
    } finally {
      await server.stop();
    }
  } finally {
    await watcher.end().catch(() => undefined);
    cluster.stop();
  }
}

/**
 * The windows compared: after the warm-up (a sixth of the run, at least one window) and the last, partial one.
 * @param {any} results
 */
function compared(results) {
  const whole = results.windows.filter((/** @type {any} */ w) => w.endSeconds <= results.minutes * 60);
  const warmUp = Math.max(1, Math.round(whole.length / 6));
  const settled = whole.slice(warmUp);
  return { first: settled.slice(0, COMPARED), last: settled.slice(-COMPARED), settled };
}

/** @param {any[]} windows @param {(w: any) => number} pick */
const medianOf = (windows, pick) => /** @type {number} */ (median(windows.map(pick)));

/** @param {any} results */
function summary(results) {
  const { first, last, settled } = compared(results);
  const memory = (/** @type {any} */ w) => w.sample.residentMegabytes;
  const p99 = (/** @type {any} */ w) => w.latencyMs.p99;
  const eventP99 = (/** @type {any} */ w) => w.eventLatencyMs.p99;
  return {
    memoryFirst: medianOf(first, memory),
    memoryLast: medianOf(last, memory),
    memoryGrowth: medianOf(last, memory) / medianOf(first, memory) - 1,
    p99First: medianOf(first, p99),
    p99Last: medianOf(last, p99),
    p99Growth: medianOf(last, p99) / medianOf(first, p99),
    eventP99Last: medianOf(last, eventP99),
    maxConnections: Math.max(...settled.map((/** @type {any} */ w) => w.sample.connections)),
  };
}

/** @param {any} results */
export function format(results) {
  const rows = results.windows.map((/** @type {any} */ w) => [
    String(w.index + 1),
    String(w.loopsCompleted),
    String(w.requests),
    String(w.failures),
    fixed(w.latencyMs.p50, 0),
    fixed(w.latencyMs.p99, 0),
    fixed(w.eventLatencyMs.p99, 0),
    fixed(w.sample.residentMegabytes, 0),
    String(w.sample.connections),
  ]);
  const s = summary(results);
  return [
    `${results.minutes} minutes at ${results.loopsPerSecond} families a second (${results.loopsCompleted} of ` +
      `${results.loopsStarted} loops ended well, ${results.failures} failed; ${results.positionsSeen} of ` +
      `${results.positionsSent} positions reached the requester's stream)`,
    table(['minute', 'loops', 'answers', 'failed', 'p50 ms', 'p99 ms', 'event p99 ms', 'RSS MB', 'connections'], rows),
    `After the warm-up: RSS ${fixed(s.memoryFirst, 0)} → ${fixed(s.memoryLast, 0)} MB (${fixed(100 * s.memoryGrowth, 1)} %), ` +
      `p99 ${fixed(s.p99First, 0)} → ${fixed(s.p99Last, 0)} ms (×${fixed(s.p99Growth, 2)}), ` +
      `at most ${s.maxConnections} database connections`,
  ].join('\n');
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  if (!results?.windows?.length) return null;
  if (budget.metric === 'failures') return results.failures + (results.positionsSent - results.positionsSeen);
  const s = summary(results);
  const value = /** @type {Record<string, number>} */ (s)[budget.metric];
  return Number.isFinite(value) ? value : null;
}
