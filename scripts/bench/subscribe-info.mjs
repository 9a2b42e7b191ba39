// GET /api/v1/personnal/subscribe/info (called on every protected navigation) for a signed-in subscriber, as
// throughput relative to a bare Fastify route served by the same app in the same run: on embedded PGlite and on
// PostgreSQL (a throwaway cluster: initdb and pg_ctl from POSTGRES_BIN_DIR, default /usr/lib/postgresql/15/bin).
// The app is the built server (server/dist/app.js) in this process, listening on a free port; the load comes from
// keep-alive HTTP clients in this process too, so both routes share the machine alike.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fixed, median, table } from './lib/format.mjs';
import { freePort } from './lib/server.mjs';
import { loadSubscriberHelper } from './lib/subscriber.mjs';

export const name = 'subscribe-info';
export const key = 'subscribeInfo';
export const description = 'GET subscribe/info throughput as a ratio to a bare Fastify route, on PGlite and PostgreSQL';
export const needsServer = false;

const ROUNDS = 3;
const ROUND_MS = 3000;
const CONCURRENCY = 16;
const POSTGRES_BIN_DIR = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** @param {string[]} argv */
function run$(argv) {
  return new Promise((resolve, reject) => {
    execFile(/** @type {string} */ (argv[0]), argv.slice(1), (error, stdout, stderr) =>
      error ? reject(new Error(`${argv[0]}: ${stderr || stdout || error.message}`)) : resolve(undefined),
    );
  });
}

/** @param {import('./lib/context.mjs').BenchContext} context */
async function startCluster(context) {
  const initdb = path.join(POSTGRES_BIN_DIR, 'initdb');
  if (!fs.existsSync(initdb)) throw new Error(`${initdb} not found: install PostgreSQL or set POSTGRES_BIN_DIR`);
  const asRoot = process.getuid?.() === 0;
  const wrap = (/** @type {string[]} */ argv) => (asRoot ? ['runuser', '-u', 'postgres', '--', ...argv] : argv);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-bench-info-pg-'));
  if (asRoot) {
    const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    fs.chownSync(folder, uid, gid);
  }
  const dataDir = path.join(folder, 'data');
  const stopArgv = wrap([path.join(POSTGRES_BIN_DIR, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', 'stop']);
  let started = false;
  const stop = () => {
    if (started) spawnSync(/** @type {string} */ (stopArgv[0]), stopArgv.slice(1), { stdio: 'ignore' });
    started = false;
    fs.rmSync(folder, { recursive: true, force: true });
  };
  const unregister = context.onCleanup(stop);
  const port = await freePort();
  await run$(wrap([initdb, '-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']));
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c synchronous_commit=off`;
  await run$(
    wrap([
      path.join(POSTGRES_BIN_DIR, 'pg_ctl'),
      '-D',
      dataDir,
      '-l',
      path.join(folder, 'log'),
      '-w',
      '-o',
      options,
      'start',
    ]),
  );
  started = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      unregister();
      stop();
    },
  };
}

/** Requests per second on one path over ROUND_MS, CONCURRENCY keep-alive connections. */
async function throughput(port, urlPath, token) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const deadline = Date.now() + ROUND_MS;
  let done = 0;
  let failed = 0;
  const once = () =>
    new Promise((resolve) => {
      const request = http.get(
        {
          host: '127.0.0.1',
          port,
          path: urlPath,
          agent,
          // A client address per request (TRUST_PROXY): the API's per-address limiter runs as in production,
          // but one load generator does not trip it.
          headers: {
            'x-forwarded-for': `10.${(done >> 16) & 255}.${(done >> 8) & 255}.${done & 255}`,
            ...(token ? { authorization: token } : {}),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode === 200) done += 1;
            else failed += 1;
            resolve(undefined);
          });
        },
      );
      request.on('error', () => {
        failed += 1;
        resolve(undefined);
      });
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline) await once();
    }),
  );
  agent.destroy();
  if (failed > 0) throw new Error(`${failed} request(s) to ${urlPath} failed`);
  return done / ((Date.now() - started) / 1000);
}

/** @param {import('./lib/context.mjs').BenchContext} context @param {Record<string, string>} env */
async function measureOn(context, env, helper) {
  const require = createRequire(import.meta.url);
  const { buildApp } = require(path.join(context.repoRoot, 'server/dist/app.js'));
  const { loadConfig } = require(path.join(context.repoRoot, 'server/dist/config.js'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-bench-info-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SERVE_WEB: 'false',
    DATA_DIR: dataDir,
    RENEWAL_INTERVAL_SECONDS: '0',
    AUTH_THROTTLE_SCALE: '100',
    TRUST_PROXY: '127.0.0.1',
    ...env,
  });
  const app = await buildApp(config);
  // The reference: the same app's cheapest possible route (no database; the same plugins, hooks and limiter).
  app.get('/api/bench/bare', async () => ({ status: 200, message: 'ok', data: { ok: true } }));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  try {
    const subscriber = await helper.signUpSubscriber(`http://127.0.0.1:${port}`);
    await throughput(port, '/api/v1/personnal/subscribe/info', subscriber.token); // warm-up
    const bare = [];
    const info = [];
    for (let round = 0; round < ROUNDS && !context.signal.aborted; round += 1) {
      bare.push(await throughput(port, '/api/bench/bare'));
      info.push(await throughput(port, '/api/v1/personnal/subscribe/info', subscriber.token));
    }
    const bareMedian = /** @type {number} */ (median(bare));
    const infoMedian = /** @type {number} */ (median(info));
    return { bare, info, bareMedian, infoMedian, ratio: infoMedian / bareMedian };
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const helper = await loadSubscriberHelper(context.repoRoot, path.join(context.reportsDir, 'subscribe-info'));
  context.log('subscribe-info: PGlite');
  const pglite = await measureOn(context, {}, helper);
  context.log('subscribe-info: PostgreSQL (throwaway cluster)');
  const cluster = await startCluster(context);
  let postgres;
  try {
    postgres = await measureOn(context, { DATABASE_URL: cluster.url }, helper);
  } finally {
    cluster.stop();
  }
  return { pglite, postgres };
}

/** @param {any} results */
export function format(results) {
  const rows = Object.entries(results).map(([database, r]) => [
    database,
    fixed(r.bareMedian, 0),
    fixed(r.infoMedian, 0),
    fixed(r.ratio, 2),
    r.info.map((/** @type {number} */ x) => fixed(x, 0)).join(' '),
  ]);
  return [
    `GET subscribe/info vs a bare route, requests/s, median of ${ROUNDS} rounds of ${ROUND_MS / 1000} s, ${CONCURRENCY} connections`,
    table(['database', 'bare route', 'subscribe/info', 'ratio', 'info rounds'], rows),
  ].join('\n');
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  const database = budget.metric.split('@')[1];
  return results?.[database ?? '']?.ratio ?? null;
}
