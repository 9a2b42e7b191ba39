// Throughput as users see it: autocannon in a process of its own loads the production server (started the README
// way, in its own process), and a bare Fastify server (its own process too) on the same machine in the same run.
// Measured for GET /healthz (no database) and GET subscribe/info (every protected navigation, a signed-in
// subscriber), on embedded PGlite and on PostgreSQL (a throwaway cluster), each as a ratio to the bare server.
// Rounds alternate bare, /healthz and subscribe/info, so a busier moment of the machine falls on all three.
// Then, for the capacity figure, POST positions: recipients live-sharing (made through the API as the soak loop
// makes them) send positions as fast as the server takes them, each stored, geocoded and published to the
// requester's stream. Beside each rate, the CPU time the server process used per answer (/proc): what an answer
// costs whatever else the machine is doing, and how busy the bare server was (when it is not, its rate is the load
// generator's ceiling rather than Fastify's).
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { fixed, median, table } from './lib/format.mjs';
import { startCluster } from './lib/postgres-cluster.mjs';
import { cpuSeconds } from './lib/process-cpu.mjs';
import { freePort, startServer } from './lib/server.mjs';
import { loadE2eSupport } from './lib/e2e-support.mjs';

export const name = 'http-throughput';
export const key = 'httpThroughput';
export const description =
  'GET /healthz and GET subscribe/info throughput (autocannon, own process) as ratios to a bare Fastify server, and positions stored per second, on PGlite and PostgreSQL';
export const needsServer = false;

const ROUNDS = 5;
const ROUND_SECONDS = 4;
const CONNECTIONS = 16;
/** Recipients sending positions at once in the positions rounds (each link's positions are stored one at a time). */
const LIVE_LINKS = 32;
const paths = {
  healthz: '/healthz',
  subscribeInfo: '/api/v1/personnal/subscribe/info',
};

/**
 * @typedef {{ requestsPerSecond: number, p99Ms: number, cpuMicrosPerAnswer: number | null, busy: number | null }} Round
 */

/**
 * One autocannon round in its own process against the server running as `pid`: its rate, its p99, the server's CPU
 * time per answer and the share of one core it used over the round (null where /proc cannot tell).
 * @param {number} pid
 * @param {string} url @param {Record<string, string>} [headers]
 * @param {{ method?: string, body?: string, paths?: string[] }} [request]
 * @returns {Promise<Round>}
 */
async function loadRound(pid, url, headers = {}, request = {}) {
  const generator = path.join(import.meta.dirname, 'lib/load-generator.mjs');
  const options = JSON.stringify({ url, connections: CONNECTIONS, seconds: ROUND_SECONDS, headers, ...request });
  const cpuBefore = cpuSeconds(pid);
  const result = await new Promise((resolve, reject) => {
    execFile(process.execPath, [generator, options], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`load generator: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
  const cpuAfter = cpuSeconds(pid);
  const refused = result.non2xx + result.errors + result.timeouts;
  if (refused > 0) throw new Error(`${url}: ${refused} of ${result.requests.sent} requests failed`);
  const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    cpuMicrosPerAnswer: cpu === null || !result.requests.total ? null : (cpu * 1e6) / result.requests.total,
    // The server is idle while the generator starts: the round's own duration is the time it was loaded.
    busy: cpu === null ? null : cpu / result.duration,
  };
}

/** @param {import('./lib/context.mjs').BenchContext} context */
async function startBareFastify(context) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'lib/bare-fastify.mjs'), String(port)], {
    stdio: 'ignore',
  });
  const unregister = context.onCleanup(() => void child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (tries > 100) throw new Error('the bare Fastify server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    pid: /** @type {number} */ (child.pid),
    stop: () => {
      unregister();
      child.kill('SIGTERM');
    },
  };
}

/**
 * @param {import('./lib/context.mjs').BenchContext} context
 * @param {string} database
 * @param {Record<string, string>} env
 * @param {{ url: string, pid: number }} bare
 * @param {any} support e2e/support/soak-loop.ts, subscriber.ts and process-memory.ts
 */
async function measureOn(context, database, env, bare, support) {
  const server = await startServer({
    repoRoot: context.repoRoot,
    logFile: path.join(context.reportsDir, `http-throughput-${database}.log`),
    onCleanup: context.onCleanup,
    log: context.log,
    // Each request from its own address (see lib/load-generator.mjs); no renewals running meanwhile. A link takes
    // 60 calls a minute (a phone sends a position every few seconds): the positions rounds raise that limit, so that
    // 32 links can send as fast as the server takes them, while the throttle's own counting still runs.
    env: { TRUST_PROXY: '127.0.0.1', RENEWAL_INTERVAL_SECONDS: '0', AUTH_THROTTLE_SCALE: '1000', ...env },
  });
  try {
    const kabari = support.serverProcessOf(server.pid);
    if (kabari === null) throw new Error('the server process was not found under /proc');
    const subscriber = await support.signUpSubscriber(server.url);
    const signedIn = { authorization: subscriber.token };
    // Warm-up: the JIT, the connection pool and the session cache.
    await loadRound(kabari, `${server.url}${paths.subscribeInfo}`, signedIn);
    /** @type {Record<'bare' | keyof typeof paths, Round[]>} */
    const rounds = { bare: [], healthz: [], subscribeInfo: [] };
    for (let round = 0; round < ROUNDS && !context.signal.aborted; round += 1) {
      rounds.bare.push(await loadRound(bare.pid, `${bare.url}/healthz`));
      rounds.healthz.push(await loadRound(kabari, `${server.url}${paths.healthz}`));
      rounds.subscribeInfo.push(await loadRound(kabari, `${server.url}${paths.subscribeInfo}`, signedIn));
    }
    // Recipients live-sharing, each sending positions to its own link in turn.
    const families = [];
    for (let index = 0; index < LIVE_LINKS; index += 1) families.push(await support.startLiveFamily(server.url, index));
    const position = {
      method: 'POST',
      body: JSON.stringify({ latitude: -6.2, longitude: 106.8, accuracy: 25, recordedAt: new Date().toISOString() }),
      paths: families.map((family) => `${family.sharePath}/positions`),
    };
    /** @type {Round[]} */
    const positionRounds = [];
    for (let round = 0; round < ROUNDS && !context.signal.aborted; round += 1) {
      positionRounds.push(await loadRound(kabari, `${server.url}${position.paths[0]}`, {}, position));
    }
    const medianOf = (/** @type {keyof typeof rounds} */ which) =>
      /** @type {number} */ (median(rounds[which].map((r) => r.requestsPerSecond)));
    const cpuOf = (/** @type {Round[]} */ list) => median(list.map((r) => r.cpuMicrosPerAnswer));
    const bareMedian = medianOf('bare');
    return {
      rounds: { ...rounds, positions: positionRounds },
      bareMedian,
      healthzMedian: medianOf('healthz'),
      subscribeInfoMedian: medianOf('subscribeInfo'),
      positionsMedian: median(positionRounds.map((r) => r.requestsPerSecond)),
      ratio: { healthz: medianOf('healthz') / bareMedian, subscribeInfo: medianOf('subscribeInfo') / bareMedian },
      bareBusy: median(rounds.bare.map((r) => r.busy)),
      cpuMicrosPerAnswer: {
        bare: cpuOf(rounds.bare),
        healthz: cpuOf(rounds.healthz),
        subscribeInfo: cpuOf(rounds.subscribeInfo),
        positions: cpuOf(positionRounds),
      },
    };
  } finally {
    await server.stop();
  }
}

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const outDir = path.join(context.reportsDir, 'http-throughput');
  const {
    subscriber,
    'soak-loop': soakLoop,
    'process-memory': processMemory,
  } = await loadE2eSupport(context.repoRoot, outDir, ['subscriber', 'soak-loop', 'process-memory']);
  const support = { ...subscriber, ...soakLoop, ...processMemory };
  const bare = await startBareFastify(context);
  try {
    context.log('http-throughput: PGlite');
    const pglite = await measureOn(context, 'pglite', {}, bare, support);
    context.log('http-throughput: PostgreSQL (throwaway cluster)');
    const cluster = await startCluster(context);
    try {
      const postgres = await measureOn(context, 'postgres', { DATABASE_URL: cluster.url }, bare, support);
      return { pglite, postgres };
    } finally {
      cluster.stop();
    }
  } finally {
    bare.stop();
  }
}

/** @param {any} results */
export function format(results) {
  const rows = Object.entries(results).map(([database, r]) => [
    database,
    fixed(r.bareMedian, 0),
    fixed(r.healthzMedian, 0),
    fixed(r.ratio.healthz, 2),
    fixed(r.subscribeInfoMedian, 0),
    fixed(r.ratio.subscribeInfo, 2),
    r.rounds.subscribeInfo.map((/** @type {{ p99Ms: number }} */ x) => fixed(x.p99Ms, 0)).join(' '),
    fixed(r.positionsMedian, 0),
    r.rounds.positions.map((/** @type {{ p99Ms: number }} */ x) => fixed(x.p99Ms, 0)).join(' '),
  ]);
  const cpuRows = Object.entries(results).map(([database, r]) => [
    database,
    r.bareBusy === null ? null : `${fixed(r.bareBusy * 100, 0)} %`,
    fixed(r.cpuMicrosPerAnswer.bare, 0),
    fixed(r.cpuMicrosPerAnswer.healthz, 0),
    fixed(r.cpuMicrosPerAnswer.subscribeInfo, 0),
    fixed(r.cpuMicrosPerAnswer.positions, 0),
  ]);
  return [
    `Requests/s, median of ${ROUNDS} rounds of ${ROUND_SECONDS} s, ${CONNECTIONS} connections, autocannon in its own process`,
    table(
      [
        'database',
        'bare Fastify',
        '/healthz',
        'ratio',
        'subscribe/info',
        'ratio',
        'subscribe/info p99 ms',
        `positions/s (${LIVE_LINKS} links)`,
        'positions p99 ms',
      ],
      rows,
    ),
    'CPU time of the server process per answer (µs, /proc, median of the rounds), and how much of one core the bare',
    'server used: under 100 %, its rate is what the load generator could send, not what Fastify could answer',
    table(['database', 'bare server busy', 'bare µs', '/healthz µs', 'subscribe/info µs', 'position µs'], cpuRows),
  ].join('\n');
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  const [which, database] = budget.metric.split('@');
  return results?.[database ?? '']?.ratio?.[which ?? ''] ?? null;
}
