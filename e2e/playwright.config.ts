import { defineConfig } from '@playwright/test';
import { chromiumArgs, requireChromium } from './support/chromium';

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  // Two spec files at a time on 2 cores (90 tests took 10.0 min with one worker, 8.4 with two; a third worker did
  // not shorten the run, 8.4 min for 139 tests either way, and made long tests time out). Whole files, so a file's
  // own server starts once.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: requireChromium(), args: chromiumArgs },
    // A trace is recorded for every test to keep the failing ones: a tenth of the run's time. CI shows only the
    // printed output, so it records none; a local run keeps the failing tests' traces.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
