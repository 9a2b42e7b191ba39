import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { openDatabase } from '../../src/db/open-database';
import { writePlaceIndex } from '../../src/geo/place-index';
import globalTeardown from './global-teardown';
import { withPostgres } from './postgres-admin';
import { scratchDir } from './scratch-dir';
import { initdbAvailable, POSTGRES_BIN_DIR, startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';

declare global {
  var kabariTestCluster: ThrowawayCluster | undefined;
  var kabariPgliteTemplate: string | undefined;
  var kabariPostgresTemplate: { url: string; name: string } | undefined;
}

/**
 * Which PostgreSQL the database tests also run on: TEST_DATABASE_URL, else a throwaway cluster made with initdb
 * (removed in the teardown), else none: then those tests are skipped and say so, unless REQUIRE_POSTGRES_TESTS=1.
 * The tests read the outcome from KABARI_TEST_POSTGRES_URL or KABARI_TEST_POSTGRES_SKIP.
 */
export default async function globalSetup(): Promise<void> {
  // One RSA key for every test app: generating one per app costs a few hundred milliseconds each.
  // (test/auth/server-secrets.test.ts covers generating and storing it on first start.)
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  process.env.KABARI_TEST_RSA_PRIVATE_KEY = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const outcomes = await Promise.allSettled([preparePgliteTemplate(), preparePostgres()]);
  const failure = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    // Jest runs no teardown when the setup fails: clean up here.
    await globalTeardown();
    throw failure.reason;
  }
}

/**
 * A PGlite cluster to copy, so each test gets a fresh DATA_DIR without paying initdb (seconds each). It is made by
 * a real first start through openDatabase on a folder that does not exist yet (create, lock, initdb, migrate,
 * close): test/db/open-database.test.ts checks what that first start left behind.
 *
 * Beside it, on the other core, a cluster without Kabari's tables for the tests of a migration, which build the
 * schema as it was before it (database-before-migration.ts): an initdb of their own took them 18–20 s of their 30
 * on a busy machine. And the bundled places' index, which the tests read as a built server reads its build's
 * (jest-setup.ts): indexing the places cost each test file that stores a position one to two CPU-seconds.
 */
async function preparePgliteTemplate(): Promise<void> {
  const template = scratchDir('kabari-test-pglite-');
  globalThis.kabariPgliteTemplate = template;
  const dataDir = path.join(template, 'first-start', 'data');
  const unmigrated = path.join(template, 'unmigrated', 'pglite');
  const firstStart = openDatabase(
    { dataDir, databaseUrl: undefined },
    { info: () => undefined, error: () => undefined },
  ).then((opened) => opened.client.close());
  const placeIndex = path.join(template, 'places.bin');
  await Promise.all([firstStart, initdbInWorker(unmigrated), writePlaceIndex(placeIndex)]);
  process.env.KABARI_TEST_PLACE_INDEX = placeIndex;
  process.env.KABARI_TEST_PGLITE_FIRST_START = dataDir;
  process.env.KABARI_TEST_PGLITE_MIGRATED = path.join(dataDir, 'pglite');
  process.env.KABARI_TEST_PGLITE_UNMIGRATED = unmigrated;
}

/** PGlite's initdb into `folder`, in a worker thread (PGlite runs on the thread that opened it). */
function initdbInWorker(folder: string): Promise<void> {
  // PGlite makes its own folder, not the ones above it.
  mkdirSync(path.dirname(folder), { recursive: true });
  const initdb = `
    const { workerData } = require('node:worker_threads');
    const { PGlite } = require('@electric-sql/pglite');
    const db = new PGlite(workerData);
    db.waitReady.then(() => db.close());`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(initdb, { eval: true, workerData: folder });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite's initdb ended with ${code}`))));
  });
}

async function preparePostgres(): Promise<void> {
  const required = process.env.REQUIRE_POSTGRES_TESTS === '1';
  if (process.env.TEST_DATABASE_URL) {
    process.env.KABARI_TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  if (!initdbAvailable()) {
    skip(
      `PostgreSQL tests SKIPPED: no TEST_DATABASE_URL and no initdb at ${path.join(POSTGRES_BIN_DIR, 'initdb')}`,
      required,
    );
    return;
  }
  try {
    const cluster = await startThrowawayCluster();
    globalThis.kabariTestCluster = cluster;
    process.env.KABARI_TEST_POSTGRES_URL = cluster.url;
  } catch (error) {
    skip(`PostgreSQL tests SKIPPED: the throwaway cluster did not start: ${(error as Error).message}`, required);
    return;
  }
  await preparePostgresTemplate(process.env.KABARI_TEST_POSTGRES_URL);
}

/**
 * A migrated database that each test's database is copied from (CREATE DATABASE … TEMPLATE), like the PGlite
 * template: migrating every test's database took about a third of a second each, some 300 times a run. It is made
 * by a real start through openDatabase; test/db/open-database.test.ts still migrates empty databases.
 */
async function preparePostgresTemplate(url: string): Promise<void> {
  const name = `kabari_test_template_${randomBytes(6).toString('hex')}`;
  await withPostgres(url, (client) => client.query(`create database ${name}`));
  globalThis.kabariPostgresTemplate = { url, name };
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${name}`;
  const opened = await openDatabase(
    // DATA_DIR is not used with a DATABASE_URL.
    { dataDir: os.tmpdir(), databaseUrl: templateUrl.toString() },
    { info: () => undefined, error: () => undefined },
  );
  await opened.client.close();
  process.env.KABARI_TEST_POSTGRES_TEMPLATE = name;
}

function skip(reason: string, required: boolean): void {
  if (required) throw new Error(`REQUIRE_POSTGRES_TESTS=1, but ${reason.replace('PostgreSQL tests SKIPPED: ', '')}`);
  process.stdout.write(`\n${reason}\n`);
  process.env.KABARI_TEST_POSTGRES_SKIP = reason;
}
