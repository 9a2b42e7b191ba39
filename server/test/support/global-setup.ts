import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { initdbAvailable, POSTGRES_BIN_DIR, startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';

declare global {
  var kabariTestCluster: ThrowawayCluster | undefined;
  var kabariPgliteTemplate: string | undefined;
}

/**
 * Which PostgreSQL the database tests also run on: TEST_DATABASE_URL, else a throwaway cluster made with initdb
 * (removed in the teardown), else none: then those tests are skipped and say so, unless REQUIRE_POSTGRES_TESTS=1.
 * The tests read the outcome from KABARI_TEST_POSTGRES_URL or KABARI_TEST_POSTGRES_SKIP.
 */
export default async function globalSetup(): Promise<void> {
  await Promise.all([preparePgliteTemplate(), preparePostgres()]);
}

// An initialized (empty) PGlite cluster to copy: each test still gets a fresh DATA_DIR, without paying initdb.
async function preparePgliteTemplate(): Promise<void> {
  const template = mkdtempSync(path.join(tmpdir(), 'kabari-test-pglite-'));
  globalThis.kabariPgliteTemplate = template;
  const pglite = new PGlite(path.join(template, 'pglite'));
  await pglite.waitReady;
  await pglite.close();
  process.env.KABARI_TEST_PGLITE_TEMPLATE = path.join(template, 'pglite');
}

async function preparePostgres(): Promise<void> {
  const required = process.env.REQUIRE_POSTGRES_TESTS === '1';
  if (process.env.TEST_DATABASE_URL) {
    process.env.KABARI_TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL;
    return;
  }
  if (!initdbAvailable()) {
    skip(`PostgreSQL tests SKIPPED: no TEST_DATABASE_URL and no initdb at ${path.join(POSTGRES_BIN_DIR, 'initdb')}`, required);
    return;
  }
  try {
    const cluster = await startThrowawayCluster();
    globalThis.kabariTestCluster = cluster;
    process.env.KABARI_TEST_POSTGRES_URL = cluster.url;
  } catch (error) {
    skip(`PostgreSQL tests SKIPPED: the throwaway cluster did not start: ${(error as Error).message}`, required);
  }
}

function skip(reason: string, required: boolean): void {
  if (required) throw new Error(`REQUIRE_POSTGRES_TESTS=1, but ${reason.replace('PostgreSQL tests SKIPPED: ', '')}`);
  process.stdout.write(`\n${reason}\n`);
  process.env.KABARI_TEST_POSTGRES_SKIP = reason;
}
