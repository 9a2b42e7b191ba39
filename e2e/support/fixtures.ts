import { test as base, expect } from '@playwright/test';

/** The base URL is the server global setup started (its port is chosen at run time). */
export const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.KABARI_BASE_URL;
    if (!url) throw new Error('KABARI_BASE_URL is not set: the global setup did not start Kabari');
    await use(url);
  },
});

/** Tests this worker process has given an address to. */
let addressesGiven = 0;

/**
 * The same, with each test's browser coming to the shared server from an address of its own, through
 * X-Forwarded-For (that server believes it from this machine, as from a proxy). Its limits per address (600 API
 * requests a minute, reports, sign-ins) then count each test apart, as they would count different visitors, and a
 * spec that loads many pages needs no server of its own. Only for pages of that server: a request to another
 * origin with this header would need the other origin's leave (a CORS preflight).
 */
export const testFromOwnAddress = test.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    addressesGiven += 1;
    // A network (/24) of its own per test, in case a limit counts networks: 10.<worker>.<test>.1.
    const address = `10.${testInfo.workerIndex % 256}.${addressesGiven % 256}.1`;
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': address });
  },
});

export { expect };
