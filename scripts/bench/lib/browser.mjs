// Finding the Chromium to measure with, and the flags every launch uses on our machines.
import fs from 'node:fs';

/** Flags every Chromium launch of the bench uses (plus a fresh user data dir per launch). */
export const chromeFlags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const howToGetChrome =
  'No Chromium found. Install one with `apt-get update && apt-get install -y chromium` ' +
  '(Debian/Ubuntu, gives /usr/bin/chromium), or point CHROME_PATH at a Chrome/Chromium binary: ' +
  '`CHROME_PATH=/path/to/chrome npm run bench`.';

/**
 * CHROME_PATH, else /usr/bin/chromium, else Playwright's own Chromium where installed.
 * @returns {Promise<{ path: string, source: string }>}
 * @throws {Error} with {@link howToGetChrome} when none exists
 */
export async function findChrome() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) {
      throw new Error(`CHROME_PATH=${fromEnv} is not an executable file. ${howToGetChrome}`);
    }
    return { path: fromEnv, source: 'CHROME_PATH' };
  }
  if (isExecutable('/usr/bin/chromium')) return { path: '/usr/bin/chromium', source: '/usr/bin/chromium' };
  try {
    const { chromium } = await import('playwright-core');
    const own = chromium.executablePath();
    if (own && isExecutable(own)) return { path: own, source: 'playwright' };
  } catch {
    // playwright-core knows no browser of its own here
  }
  throw new Error(howToGetChrome);
}

/** @param {string} file */
function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
