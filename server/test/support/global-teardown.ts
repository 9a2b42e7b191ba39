import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  globalThis.kabariTestCluster?.stop();
  globalThis.kabariTestCluster = undefined;
  if (globalThis.kabariPgliteTemplate) rmSync(globalThis.kabariPgliteTemplate, { recursive: true, force: true });
}
