import { test as base } from './fixtures';
import { startKabari, type KabariServer } from './kabari-server';

/**
 * Tests that load many pages run against a Kabari of their own: the server allows 600 requests a
 * minute per address, static files included, and the suite's shared server would then refuse the
 * tests that follow.
 */
export const test = base.extend<object, { ownKabari: KabariServer }>({
  ownKabari: [
    async ({}, use) => {
      const server = await startKabari();
      await use(server);
      await server.stop();
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ ownKabari }, use) => {
    await use(ownKabari.url);
  },
});

export { expect } from './fixtures';
