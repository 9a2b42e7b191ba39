// Throughput as users see it: autocannon in a process of its own loads the production server (started the README
// way, in its own process), and a bare Fastify server (its own process too) on the same machine in the same run.
// Measured for GET /healthz (no database), GET subscribe/info (every protected navigation) and GET the request
// history (the dashboard's list), signed in where the route needs it, on embedded PGlite and on PostgreSQL (a
// throwaway cluster), each as a ratio to the bare server giving the same answer: the same status, headers and body
// bytes, copied from the production server's own answer to that route (lib/answer-of.mjs). Each round loads the bare
// server and then ours on one route, route after route, so a busier moment of the machine falls on both sides of a
// ratio.
// Then, for the capacity figure, POST positions: recipients live-sharing (made through the API as the soak loop
// makes them) send positions as fast as the server takes them, each stored, geocoded and published to the
// requester's stream. Beside each rate, the CPU time the server process used per answer (/proc): what an answer
// costs whatever else the machine is doing, and how busy the bare server was (when it is not, its rate is the load
// generator's ceiling rather than Fastify's).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answerOf } from './lib/answer-of.mjs';
import { fixed, median, table } from './lib/format.mjs';
import { startCluster } from './lib/postgres-cluster.mjs';
import { cpuSeconds } from './lib/process-cpu.mjs';
import { freePort, startServer } from './lib/server.mjs';
import { loadE2eSupport } from './lib/e2e-support.mjs';

export const name = 'http-throughput';
export const key = 'httpThroughput';
export const description =
  'GET /healthz, subscribe/info and the request history throughput (autocannon, own process) as ratios to a bare Fastify server giving the same answers, and positions stored per second, on PGlite and PostgreSQL';
export const needsServer = false;

const ROUNDS = 5;
const ROUND_SECONDS = 4;
const CONNECTIONS = 16;
/** Recipients sending positions at once in the positions rounds (each link's positions are stored one at a time). */
const LIVE_LINKS = 32;
/** The read routes measured, each with a budget of its own (budgets.mjs). */
const paths = {
  healthz: '/healthz',
  subscribeInfo: '/api/v1/personnal/subscribe/info',
  history: '/api/v1/requests?page=1&pageSize=10',
};
/** @typedef {keyof typeof paths} ReadRoute */
const readRoutes = /** @type {ReadRoute[]} */ (Object.keys(paths));

/**
 * @typedef {{ requestsPerSecond: number, p99Ms: number, cpuMicrosPerAnswer: number | null, busy: number | null,
 *   loadAverage: number }} Round
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
    // The machine is shared: its one-minute load average as the round ended, beside every absolute figure.
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

/**
 * @typedef {{ relative: Record<string, string>, sharePath: string }} LiveFamily
 */

/**
 * The relative turns live sharing on again for 15 minutes.
 * @param {string} baseUrl @param {LiveFamily} family
 */
async function liveAgain(baseUrl, family) {
  const answer = await fetch(`${baseUrl}${family.sharePath}/live`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...family.relative },
    body: JSON.stringify({ minutes: 15 }),
  });
  if (!answer.ok) throw new Error(`live sharing could not be turned on again: ${answer.status}`);
}

/**
 * Each link stores a position (`accepted: true`): the rounds measure positions stored, not refused.
 * @param {string} baseUrl @param {LiveFamily[]} families @param {string} body
 */
async function everyPositionStored(baseUrl, families, body) {
  for (const family of families) {
    const answer = await fetch(`${baseUrl}${family.sharePath}/positions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...family.relative },
      body,
    });
    const accepted = answer.ok ? (await answer.json()).data?.accepted : undefined;
    if (accepted !== true) throw new Error(`a position was not stored (${answer.status}, accepted: ${accepted})`);
  }
}

/**
 * The bare Fastify server, giving back the answers given (lib/bare-fastify.mjs).
 * @param {import('./lib/context.mjs').BenchContext} context
 * @param {string} answersFile
 */
async function startBareFastify(context, answersFile) {
  const port = await freePort();
  const script = path.join(import.meta.dirname, 'lib/bare-fastify.mjs');
  const child = spawn(process.execPath, [script, String(port), answersFile], { stdio: 'ignore' });
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
 * @param {any} support e2e/support/soak-loop.ts, subscriber.ts and process-memory.ts
 */
async function measureOn(context, database, env, support) {
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
    // Recipients live-sharing, each sending positions to its own link in turn; the first one's requester reads the
    // request history (one request, shared live, with its last position).
    const families = [];
    for (let index = 0; index < LIVE_LINKS; index += 1) families.push(await support.startLiveFamily(server.url, index));
    /** @type {Record<ReadRoute, Record<string, string>>} */
    const signedIn = {
      healthz: {},
      subscribeInfo: { authorization: subscriber.token },
      history: { authorization: families[0].subscriberToken },
    };
    // The bare server gives each route's answer as ours gave it.
    const answers = [];
    for (const route of readRoutes) {
      const answer = await answerOf(`${server.url}${paths[route]}`, signedIn[route]);
      if (answer.statusCode !== 200) throw new Error(`${paths[route]} answered ${answer.statusCode}`);
      answers.push({ path: paths[route].split('?')[0], ...answer });
    }
    const answersFile = path.join(context.reportsDir, `http-throughput-${database}-answers.json`);
    fs.writeFileSync(answersFile, JSON.stringify(answers));
    const bare = await startBareFastify(context, answersFile);
    /** @type {Record<ReadRoute, { bare: Round[], kabari: Round[] }>} */
    const rounds = {
      healthz: { bare: [], kabari: [] },
      subscribeInfo: { bare: [], kabari: [] },
      history: { bare: [], kabari: [] },
    };
    try {
      // Warm-up: the JIT, the connection pool and the caches, on both servers.
      for (const route of readRoutes) {
        await loadRound(bare.pid, `${bare.url}${paths[route]}`);
        await loadRound(kabari, `${server.url}${paths[route]}`, signedIn[route]);
      }
      for (let round = 0; round < ROUNDS && !context.signal.aborted; round += 1) {
        for (const route of readRoutes) {
          rounds[route].bare.push(await loadRound(bare.pid, `${bare.url}${paths[route]}`));
          rounds[route].kabari.push(await loadRound(kabari, `${server.url}${paths[route]}`, signedIn[route]));
        }
      }
    } finally {
      bare.stop();
    }
    const position = {
      method: 'POST',
      body: JSON.stringify({ latitude: -6.2, longitude: 106.8, accuracy: 25, recordedAt: new Date().toISOString() }),
      paths: families.map((family) => `${family.sharePath}/positions`),
    };
    // The read rounds outlast a live page's silence (two minutes): the server ended the relatives' live sharing
    // meanwhile, and a position then is answered `accepted: false`, stored nowhere. Each relative turns it on again,
    // as their page would, and every link is checked to store its positions before and after the rounds.
    for (const family of families) await liveAgain(server.url, family);
    await everyPositionStored(server.url, families, position.body);
    // Warm-up, as for the read routes: the JIT and the prepared statements.
    await loadRound(kabari, `${server.url}${position.paths[0]}`, {}, position);
    /** @type {Round[]} */
    const positionRounds = [];
    for (let round = 0; round < ROUNDS && !context.signal.aborted; round += 1) {
      positionRounds.push(await loadRound(kabari, `${server.url}${position.paths[0]}`, {}, position));
    }
    await everyPositionStored(server.url, families, position.body);
    const rateOf = (/** @type {Round[]} */ list) =>
      /** @type {number} */ (median(list.map((r) => r.requestsPerSecond)));
    const cpuOf = (/** @type {Round[]} */ list) => median(list.map((r) => r.cpuMicrosPerAnswer));
    const loadOf = (/** @type {Round[]} */ list) => median(list.map((r) => r.loadAverage));
    const routes = Object.fromEntries(
      readRoutes.map((route) => {
        const { bare: bareRounds, kabari: ours } = rounds[route];
        return [
          route,
          {
            bareMedian: rateOf(bareRounds),
            median: rateOf(ours),
            ratio: rateOf(ours) / rateOf(bareRounds),
            // Each round's ratio to the bare round just before it, for the spread.
            roundRatios: ours.map((r, i) => r.requestsPerSecond / (bareRounds[i]?.requestsPerSecond ?? Number.NaN)),
            p99Ms: ours.map((r) => r.p99Ms),
            bareBusy: median(bareRounds.map((r) => r.busy)),
            cpuMicrosPerAnswer: { bare: cpuOf(bareRounds), kabari: cpuOf(ours) },
            loadAverage: loadOf([...bareRounds, ...ours]),
          },
        ];
      }),
    );
    return {
      rounds: { ...rounds, positions: positionRounds },
      routes,
      ratio: Object.fromEntries(readRoutes.map((route) => [route, routes[route].ratio])),
      positions: {
        median: rateOf(positionRounds),
        p99Ms: positionRounds.map((r) => r.p99Ms),
        cpuMicrosPerAnswer: cpuOf(positionRounds),
        loadAverage: loadOf(positionRounds),
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
  context.log('http-throughput: PGlite');
  const pglite = await measureOn(context, 'pglite', {}, support);
  context.log('http-throughput: PostgreSQL (throwaway cluster)');
  const cluster = await startCluster(context);
  try {
    const postgres = await measureOn(context, 'postgres', { DATABASE_URL: cluster.url }, support);
    return { cpu: `${os.cpus().length}× ${os.cpus()[0]?.model ?? '?'}`, pglite, postgres };
  } finally {
    cluster.stop();
  }
}

const databases = /** @type {const} */ (['pglite', 'postgres']);

/** @param {any} results */
export function format(results) {
  const measured = databases.filter((database) => results[database]);
  const rows = measured.flatMap((database) =>
    readRoutes.map((route) => {
      const r = results[database].routes[route];
      return [
        database,
        paths[route].split('?')[0],
        fixed(r.bareMedian, 0),
        fixed(r.median, 0),
        fixed(r.ratio, 2),
        r.roundRatios.map((/** @type {number} */ x) => fixed(x, 2)).join(' '),
        r.p99Ms.map((/** @type {number} */ x) => fixed(x, 0)).join(' '),
        r.bareBusy === null ? null : `${fixed(r.bareBusy * 100, 0)} %`,
        fixed(r.cpuMicrosPerAnswer.bare, 0),
        fixed(r.cpuMicrosPerAnswer.kabari, 0),
        fixed(r.loadAverage, 2),
      ];
    }),
  );
  const positionRows = measured.map((database) => {
    const p = results[database].positions;
    return [
      database,
      fixed(p.median, 0),
      results[database].rounds.positions.map((/** @type {Round} */ x) => fixed(x.requestsPerSecond, 0)).join(' '),
      p.p99Ms.map((/** @type {number} */ x) => fixed(x, 0)).join(' '),
      fixed(p.cpuMicrosPerAnswer, 0),
      fixed(p.loadAverage, 2),
    ];
  });
  return [
    `Requests/s on ${results.cpu}, median of ${ROUNDS} rounds of ${ROUND_SECONDS} s, ${CONNECTIONS} connections, autocannon in its own process;`,
    'the bare Fastify server gives the same status, headers and body as ours for each route, in the same rounds',
    table(
      [
        'database',
        'route',
        'bare req/s',
        'ours req/s',
        'ratio',
        'ratio each round',
        'ours p99 ms',
        'bare busy',
        'bare µs',
        'ours µs',
        'load avg',
      ],
      rows,
    ),
    '"µs": CPU time of the server process per answer (/proc, all its threads, median of the rounds); "bare busy": how',
    'much of one core the bare server used (under 100 %, its rate is what the load generator could send); "load avg":',
    "the machine's one-minute load average, median of the rounds' ends",
    `Positions stored a second (${LIVE_LINKS} links, each stored, geocoded and published), median of ${ROUNDS} rounds`,
    table(['database', 'positions/s', 'each round', 'p99 ms each round', 'µs per position', 'load avg'], positionRows),
  ].join('\n');
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  const [which, database] = budget.metric.split('@');
  const measured = results?.[database ?? ''];
  if (!measured) return null;
  if (which === 'positions') return fixed(measured.positions.median, 0);
  const ratio = measured.ratio?.[which ?? ''];
  return ratio === undefined ? null : fixed(ratio, 2);
}

/** Beside each budget's line: the CPU it ran on and the load average of the rounds it was measured in. */
/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function circumstances(results, budget) {
  const [which, database] = budget.metric.split('@');
  const measured = results?.[database ?? ''];
  if (!measured) return null;
  const load = which === 'positions' ? measured.positions.loadAverage : measured.routes[which ?? '']?.loadAverage;
  return `${results.cpu}, load average ${fixed(load, 2)}`;
}
