import { test as base } from './fixtures';
import { startKabari, type KabariServer } from './kabari-server';

/**
 * The test function of a spec file that runs against a Kabari of its own, started once for the file with `env`: a
 * configuration the suite's shared server does not have, or requests from outside the browser in numbers that
 * would use up what the shared server allows 127.0.0.1. Call it once, at the top of the file.
 *
 * The server is the file's (its hooks), not a worker fixture: a worker fixture of its own gives the file a worker of
 * its own, and Playwright then keeps every such file for the end of the run, where they ran one or two at a time
 * while the other worker had nothing left to do.
 */
export function withOwnKabari(env: Record<string, string> = {}) {
  let server: KabariServer | undefined;
  base.beforeAll(async () => {
    server = await startKabari(env);
  });
  base.afterAll(async () => {
    await server?.stop();
    server = undefined;
  });
  const started = () => {
    if (!server) throw new Error('the spec file’s own Kabari is not running (withOwnKabari is called at its top)');
    return server;
  };
  return base.extend<{ ownKabari: KabariServer }>({
    ownKabari: async ({}, use) => {
      await use(started());
    },
    // Also asked for the file's hooks, before the first of them has started the server.
    baseURL: async ({}, use) => {
      await use(server?.url);
    },
  });
}
