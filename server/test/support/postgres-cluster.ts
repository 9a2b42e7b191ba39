import { execFile, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const POSTGRES_BIN_DIR = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

export interface ThrowawayCluster {
  url: string;
  folder: string;
  stop(): void;
  /** An outage: the server stops at once (as on a crash), keeping its data, until `startServer`. */
  stopServer(): void;
  startServer(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * initdb refuses to run as root: as root, the cluster belongs to the postgres user and every command runs
 * through runuser; as anyone else, it runs as that user.
 */
function commandRunner(): { run: (command: string, args: string[]) => string[]; owner?: { uid: number; gid: number } } {
  if (process.getuid?.() !== 0) return { run: (command, args) => [command, ...args] };
  const owner = postgresUser();
  if (!owner) throw new Error('running as root, and there is no postgres user to own a PostgreSQL cluster');
  return { run: (command, args) => ['runuser', '-u', 'postgres', '--', command, ...args], owner };
}

// Asynchronous, so the caller can prepare other things (the PGlite template) meanwhile.
function runChecked(argv: string[], what: string): Promise<void> {
  const [command, ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(command as string, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${what} failed (${argv.join(' ')}):\n${stderr || stdout || error.message}`));
      else resolve();
    });
  });
}

/**
 * `durable`: PostgreSQL's own defaults (fsync, synchronous commits), for a test that crashes the server and counts
 * on every acknowledged commit surviving it, as it does in a deployment. Without it the cluster trades that away for
 * speed: a commit is acknowledged before its WAL is written, so an immediate stop can lose the last ones.
 */
export async function startThrowawayCluster(options: { durable?: boolean } = {}): Promise<ThrowawayCluster> {
  const initdb = path.join(POSTGRES_BIN_DIR, 'initdb');
  const pgCtl = path.join(POSTGRES_BIN_DIR, 'pg_ctl');
  const { run, owner } = commandRunner();
  const folder = mkdtempSync(path.join(tmpdir(), 'kabari-test-pg-'));
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const dataDir = path.join(folder, 'data');
  const remove = () => rmSync(folder, { recursive: true, force: true });

  try {
    await runChecked(
      run(initdb, [
        '-D',
        dataDir,
        '-U',
        'postgres',
        '-A',
        'trust',
        '-E',
        'UTF8',
        '--no-locale',
        '--no-sync',
        '--no-instructions',
      ]),
      'initdb',
    );
    // A port can be taken between choosing and binding it: try a few.
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const port = await freePort();
      const serverOptions = [
        '-c listen_addresses=127.0.0.1',
        `-p ${port}`,
        `-k ${folder}`,
        // A throwaway cluster needs no durability: much faster DDL and CREATE DATABASE.
        ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
        '-c max_connections=200',
      ].join(' ');
      const startArgv = run(pgCtl, [
        '-D',
        dataDir,
        '-l',
        path.join(folder, 'server.log'),
        '-w',
        '-t',
        '60',
        '-o',
        serverOptions,
        'start',
      ]);
      try {
        await runChecked(startArgv, 'pg_ctl start');
      } catch (error) {
        lastError = error;
        continue;
      }
      const stopArgv = run(pgCtl, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      const watchdog = startWatchdog(stopArgv, folder);
      return {
        url: `postgres://postgres@127.0.0.1:${port}/postgres`,
        folder,
        stopServer: () => {
          spawnSync(stopArgv[0] as string, stopArgv.slice(1), { stdio: 'ignore' });
        },
        startServer: () => {
          const started = spawnSync(startArgv[0] as string, startArgv.slice(1), { stdio: 'ignore' });
          if (started.status !== 0) throw new Error(`pg_ctl start exited with ${started.status}`);
        },
        stop: () => {
          spawnSync(stopArgv[0] as string, stopArgv.slice(1), { stdio: 'ignore' });
          remove();
          if (watchdog) {
            try {
              process.kill(watchdog);
            } catch {
              // Already gone.
            }
          }
        },
      };
    }
    throw lastError;
  } catch (error) {
    remove();
    throw error;
  }
}

/** If the test run is killed before its teardown, this stops the cluster and removes its folder anyway. */
function startWatchdog(stopArgv: string[], folder: string): number | undefined {
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  const script = [
    `while kill -0 ${process.pid} 2>/dev/null && [ -d ${quote(folder)} ]; do sleep 2; done`,
    `${stopArgv.map(quote).join(' ')} >/dev/null 2>&1`,
    `rm -rf ${quote(folder)}`,
  ].join('; ');
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
}

export function initdbAvailable(): boolean {
  return existsSync(path.join(POSTGRES_BIN_DIR, 'initdb'));
}
