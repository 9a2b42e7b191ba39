// Building the app and running the production server for the bench: a free port, a fresh
// data folder, /healthz before anything is measured, and a clean stop whatever happens.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * @typedef {(fn: () => Promise<void> | void) => () => void} OnCleanup
 */

/**
 * Runs `node scripts/build.mjs`, its output going to `logFile`.
 * @param {{ repoRoot: string, logFile: string, onCleanup: OnCleanup }} options
 * @returns {Promise<number>} seconds it took
 */
export async function buildApp({ repoRoot, logFile, onCleanup }) {
  const started = Date.now();
  const out = fs.openSync(logFile, 'w');
  try {
    const code = await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['scripts/build.mjs'], {
        cwd: repoRoot,
        stdio: ['ignore', out, out],
        detached: true,
      });
      const unregister = onCleanup(() => killGroup(/** @type {number} */ (child.pid), 'SIGTERM'));
      child.on('error', reject);
      child.on('exit', (exitCode, signal) => {
        unregister();
        resolve(exitCode ?? (signal ? 1 : 0));
      });
    });
    if (code !== 0) {
      throw new Error(`build failed (exit ${code}); last lines of ${logFile}:\n${tail(logFile, 30)}`);
    }
  } finally {
    fs.closeSync(out);
  }
  return (Date.now() - started) / 1000;
}

/** @returns {Promise<number>} a TCP port free on 127.0.0.1 right now */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * @typedef {object} RunningServer
 * @property {string} url base URL, e.g. http://127.0.0.1:41234
 * @property {number} port
 * @property {string} dataDir the fresh embedded-database folder
 * @property {string} logFile where the server's stdout/stderr go
 * @property {number} pid the process spawned (scripts/start.mjs, whose child is the server)
 * @property {() => Promise<void>} stop SIGTERM, wait, SIGKILL if needed, remove the temp folder; idempotent
 */

/**
 * Starts the production server the README way (`scripts/start.mjs`, build skipped) on a free
 * port with a fresh DATA_DIR (and `env` on top), and waits for GET /healthz to answer 200.
 * Its stop is registered with `onCleanup` as soon as it is spawned.
 * `onUnexpectedExit` is called if it exits once ready without having been told to stop.
 * @param {{
 *   repoRoot: string,
 *   logFile: string,
 *   onCleanup: OnCleanup,
 *   onUnexpectedExit?: (message: string) => void,
 *   log?: (message: string) => void,
 *   readyTimeoutMs?: number,
 *   env?: Record<string, string>,
 * }} options
 * @returns {Promise<RunningServer>}
 */
export async function startServer({
  repoRoot,
  logFile,
  onCleanup,
  onUnexpectedExit = () => {},
  log = () => {},
  readyTimeoutMs = 90_000,
  env = {},
}) {
  const serverEntry = path.join(repoRoot, 'server/dist/server.js');
  if (!fs.existsSync(serverEntry)) {
    throw new Error(`${path.relative(repoRoot, serverEntry)} does not exist: build first (drop --skip-build).`);
  }
  const port = await freePort();
  const tmpDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'kabari-bench-'));
  const dataDir = path.join(tmpDir, 'data');
  const out = fs.openSync(logFile, 'w');
  // Its own process group, so a Ctrl-C in the terminal reaches only the bench, which then
  // stops the server itself (a second signal would cut the graceful shutdown short).
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    stdio: ['ignore', out, out],
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      KABARI_SKIP_BUILD: '1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ...env,
    },
  });
  fs.closeSync(out);
  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
    child.on('error', (error) => {
      exited = { code: -1, signal: null };
      resolve({ error });
    });
  });

  /** @type {Promise<void> | null} */
  let stopping = null;
  const stop = () => (stopping ??= stopServer());
  const stopServer = async () => {
    if (!exited && child.pid) {
      child.kill('SIGTERM');
      const timer = new Promise((resolve) => setTimeout(resolve, 15_000, 'timeout'));
      if ((await Promise.race([exitPromise, timer])) === 'timeout') {
        killGroup(child.pid, 'SIGKILL');
        await exitPromise;
      }
    }
    // start.mjs exits when its server exits; anything left in the group is a straggler.
    if (child.pid) killGroup(child.pid, 'SIGKILL');
    await fsp.rm(tmpDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  };

  onCleanup(async () => {
    log('stopping the server');
    await stop();
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  try {
    for (;;) {
      if (stopping) throw new Error('stopped before /healthz answered');
      if (exited) {
        throw new Error(
          `the server exited before /healthz answered (${JSON.stringify(exited)}); last lines of ${logFile}:\n${tail(logFile, 30)}`,
        );
      }
      if (await healthy(`${url}/healthz`)) break;
      if (Date.now() > deadline) {
        throw new Error(
          `/healthz did not answer 200 within ${readyTimeoutMs / 1000}s; last lines of ${logFile}:\n${tail(logFile, 30)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  log(`server ready at ${url} (DATA_DIR ${dataDir}, log ${logFile})`);
  exitPromise.then(() => {
    if (stopping) return;
    const how = exited?.signal ? `signal ${exited.signal}` : `exit code ${exited?.code}`;
    onUnexpectedExit(
      `the server exited during the bench (${how}), not stopped by the bench\n` +
        `  (stopped by someone else, or crashed; last lines of ${logFile}:)\n${tail(logFile, 5)}`,
    );
  });
  return { url, port, dataDir, logFile, stop, pid: /** @type {number} */ (child.pid) };
}

/** @param {string} url */
async function healthy(url) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** @param {number} pid @param {NodeJS.Signals} signal */
function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** @param {string} file @param {number} lines */
export function tail(file, lines) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
