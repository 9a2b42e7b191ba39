import { rmSync } from 'node:fs';
import { withPostgres } from './postgres-admin';

export default async function globalTeardown(): Promise<void> {
  const template = globalThis.kabariPostgresTemplate;
  globalThis.kabariPostgresTemplate = undefined;
  // A throwaway cluster goes as a whole; a TEST_DATABASE_URL server keeps nothing of ours.
  if (template && !globalThis.kabariTestCluster) {
    await withPostgres(template.url, (client) => client.query(`drop database if exists ${template.name} with (force)`));
  }
  globalThis.kabariTestCluster?.stop();
  globalThis.kabariTestCluster = undefined;
  if (globalThis.kabariPgliteTemplate) rmSync(globalThis.kabariPgliteTemplate, { recursive: true, force: true });
}
