import { test as base, expect } from '@playwright/test';

/** The base URL is the server global setup started (its port is chosen at run time). */
export const test = base.extend({
  baseURL: async ({}, use) => {
    const url = process.env.KABARI_BASE_URL;
    if (!url) throw new Error('KABARI_BASE_URL is not set: the global setup did not start Kabari');
    await use(url);
  },
});

export { expect };
