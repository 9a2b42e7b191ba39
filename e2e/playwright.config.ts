import { defineConfig } from '@playwright/test';
import { chromiumArgs, requireChromium } from './support/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // Three spec files at a time on 2 cores: the suite waits on pages and servers as much as it computes (90 tests
  // took 10.0 min with one worker, 8.4 with two). Whole files, so a file's own server starts once.
  workers: 3,
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
