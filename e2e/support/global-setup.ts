import fs from 'node:fs';
import path from 'node:path';
import { webApps } from '../../apps';
import { preparePgliteTemplate, repoRoot, startKabari } from './kabari-server';

const stateFile = path.join(__dirname, '../.artifacts/server.json');

/** One production server for the whole run; tests that need their own configuration start another. */
export default async function globalSetup() {
  for (const app of [...webApps, 'server']) {
    const built = path.join(repoRoot, app, 'dist');
    if (!fs.existsSync(built)) throw new Error(`${app} is not built: run \`npm run build\` first.`);
  }
  // The migrated database every server of the run copies (startKabari), the shared one too: a first start's initdb
  // and migrations are about 6 CPU-seconds, a start from the copy about 2. The shared server believes
  // X-Forwarded-For from this machine, so that a test can come to it from an address of its own (testFromOwnAddress
  // in fixtures.ts, and each sign-up in subscriber.ts).
  const template = await preparePgliteTemplate();
  process.env.KABARI_E2E_PGLITE_TEMPLATE = template;
  const server = await startKabari({ TRUST_PROXY: '127.0.0.1' });
  process.env.KABARI_BASE_URL = server.url;
  fs.mkdirSync(path.dirname(stateFile), { recursive: true });
  fs.writeFileSync(stateFile, JSON.stringify({ url: server.url }));
  return async () => {
    await server.stop();
    fs.rmSync(path.dirname(template), { recursive: true, force: true });
  };
}
