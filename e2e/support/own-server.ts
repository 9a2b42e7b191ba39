import { test as base } from './fixtures';
import { startKabari, type KabariServer } from './kabari-server';

/**
 * The test function of a spec file that runs against a Kabari of its own, started once per worker with `env` (a
 * configuration the suite's shared server does not have, or many page loads: the server allows 600 requests a
 * minute per address, static files included, and the shared server would then refuse the tests that follow).
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

export const test = withOwnKabari();

export { expect } from './fixtures';
