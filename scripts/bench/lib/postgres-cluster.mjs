// A throwaway PostgreSQL cluster for the bench: initdb and pg_ctl from POSTGRES_BIN_DIR (default
// /usr/lib/postgresql/15/bin) on a free port on 127.0.0.1, run as the postgres user when the bench runs as root,
// stopped and removed by its stop() or the bench's cleanup.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.mjs';

const POSTGRES_BIN_DIR = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';

/** @param {string[]} argv */
function run$(argv) {
  return new Promise((resolve, reject) => {
    execFile(/** @type {string} */ (argv[0]), argv.slice(1), (error, stdout, stderr) =>
      error ? reject(new Error(`${argv[0]}: ${stderr || stdout || error.message}`)) : resolve(undefined),
    );
  });
}

/** @param {import('./context.mjs').BenchContext} context */
export async function startCluster(context) {
  const initdb = path.join(POSTGRES_BIN_DIR, 'initdb');
  if (!fs.existsSync(initdb)) throw new Error(`${initdb} not found: install PostgreSQL or set POSTGRES_BIN_DIR`);
  const asRoot = process.getuid?.() === 0;
  const wrap = (/** @type {string[]} */ argv) => (asRoot ? ['runuser', '-u', 'postgres', '--', ...argv] : argv);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-bench-pg-'));
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
