// Starts the production build the README way (scripts/start.mjs) on a free port with a fresh data folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
// The server tests' scratch folder: in memory where the machine has /dev/shm (copying a database there is quicker).
import { scratchDir } from '../../server/test/support/scratch-dir';

export const repoRoot = path.resolve(__dirname, '../..');

/**
 * The /dev tools' token (DEV_TOOLS_TOKEN) of every Kabari these tests start: chosen once per run, in the process
 * that loads this module first (the global setup), and inherited by the workers through the environment.
 */
export const devToolsToken = (process.env.KABARI_E2E_DEV_TOOLS_TOKEN ??= randomBytes(24).toString('hex'));

/** A /dev tool's URL on a Kabari these tests started: with the token, or it is an unknown path. */
export function devToolUrl(baseURL: string, pathname: string): URL {
  const url = new URL(pathname, baseURL);
  url.searchParams.set('token', devToolsToken);
  return url;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface KabariServer {
  url: string;
  dataDir: string;
  /** Stops the server and removes its data folder, unless asked to keep it (to inspect the database). */
  stop: (options?: { keepData?: boolean }) => Promise<void>;
  /** Everything the server has written to stdout and stderr so far: its log. */
  output: () => string;
  /** The process spawned (scripts/start.mjs, whose child is the server). */
  pid: number;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  // A busy 2-core machine has been seen to take 55 s to start the production server.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Kabari exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Kabari did not become healthy at ${url}:\n${output()}`);
}

/**
 * A migrated PGlite database for the servers of this run to copy (startKabari), made once by opening a new data
 * folder the way the server's first start does, with the server's secrets in it as a first start leaves them
 * (its RSA key took about 0.75 s of CPU in each server's first start). Returns its folder; remove it when the run
 * ends.
 */
export async function preparePgliteTemplate(): Promise<string> {
  const folder = scratchDir('kabari-e2e-template-');
  const { openDatabase } = (await import(path.join(repoRoot, 'server/dist/db/open-database.js'))) as {
    openDatabase: (
      options: { dataDir: string; databaseUrl: undefined },
      log: { info: () => void; error: () => void },
    ) => Promise<{ db: unknown; client: { close: () => Promise<void> } }>;
  };
  const { loadServerSecrets } = (await import(path.join(repoRoot, 'server/dist/auth/server-secrets.js'))) as {
    loadServerSecrets: (db: unknown, config: object) => Promise<unknown>;
  };
  const opened = await openDatabase({ dataDir: folder, databaseUrl: undefined }, { info() {}, error() {} });
  // No key or secret in the configuration: made and stored, as on a server's first start.
  await loadServerSecrets(opened.db, {});
  await opened.client.close();
  return path.join(folder, 'pglite');
}

/**
 * `beforeStart`: runs once the data folder is ready and before the server opens it (the embedded database takes one
 * process at a time), e.g. a command of the server's own against that database.
 */
export async function startKabari(
  env: Record<string, string> = {},
  beforeStart?: (dataDir: string) => void | Promise<void>,
): Promise<KabariServer> {
  const port = await freePort();
  const dataDir = scratchDir('kabari-e2e-');
  // A copy of the migrated database the global setup made: a first start's initdb and migrations cost seconds of
  // CPU each time, which a run that starts a dozen servers on two cores feels.
  const template = process.env.KABARI_E2E_PGLITE_TEMPLATE;
  if (template && !env.DATABASE_URL) fs.cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
  await beforeStart?.(dataDir);
  let log = '';
  // --liftoff-only: PGlite's WebAssembly Postgres runs on V8's baseline compiler, without the optimizing tier-up a
  // long-lived server earns back: a test server lives a minute or two, and the servers of a whole Playwright run
  // took 73 and 83 CPU-seconds with it against 90 and 94 without (two alternating pairs). start.mjs hands it on.
  const child = spawn(process.execPath, ['--liftoff-only', 'scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      KABARI_SKIP_BUILD: '1',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEV_TOOLS_TOKEN: devToolsToken,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async ({ keepData = false } = {}) => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, dataDir, stop, output: () => log, pid: child.pid! };
}
