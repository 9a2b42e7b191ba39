import { defineConfig } from '@playwright/test';
import { chromiumArgs, requireChromium } from './support/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  // Tests, not files, are spread over the workers (a file with a server of its own keeps its tests in one worker):
  // the suite waits on pages and servers more than it computes, and its longest files no longer set its length.
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 4),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: requireChromium(), args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
