import { test as base } from './fixtures';
import { startKabari, type KabariServer } from './kabari-server';

/**
 * The test function of a spec file that runs against a Kabari of its own, started once per worker with `env`: a
 * configuration the suite's shared server does not have, or requests from outside the browser in numbers that
 * would use up what the shared server allows 127.0.0.1.
 */
export function withOwnKabari(env: Record<string, string> = {}) {
  return base.extend<object, { ownKabari: KabariServer }>({
    ownKabari: [
      async ({}, use) => {
        const server = await startKabari(env);
        await use(server);
        await server.stop();
      },
      { scope: 'worker' },
    ],
    baseURL: async ({ ownKabari }, use) => {
      await use(ownKabari.url);
    },
  });
}
