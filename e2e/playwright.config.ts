import { defineConfig } from '@playwright/test';
import { chromiumArgs, requireChromium } from './support/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // Two spec files at a time: the suite waits on pages as much as it computes (90 tests: 10.0 → 8.4 min on 2 cores).
  workers: 2,
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
