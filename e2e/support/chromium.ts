import fs from 'node:fs';
import { chromium } from 'playwright-core';

/**
 * CHROME_PATH, else Debian's headless shell, else Debian's /usr/bin/chromium, else Playwright's own browser where
 * installed. The headless shell (the browser Playwright itself runs headless tests in) is the same engine without
 * the desktop browser around it: here it made a page load and an axe check about twice as fast as the full
 * browser in headless mode, which on two cores is minutes of the run.
 */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ];
  for (const candidate of candidates) if (candidate && fs.existsSync(candidate)) return candidate;
  try {
    const bundled = chromium.executablePath();
    if (bundled && fs.existsSync(bundled)) return bundled;
  } catch {
    // playwright-core without a downloaded browser
  }
  return undefined;
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  // A fake microphone (a steady tone) that every page may use without a prompt, and players that start without a
  // tap: for the voice messages' tests, in every worker, so that their spec needs no browser of its own and the run
  // keeps two workers busy to its end. No other test touches the microphone or plays audio.
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

export function requireChromium(): string {
  const found = findChromium();
  if (!found) {
    throw new Error(
      'No Chromium found for the end-to-end tests. Install one with `apt-get install -y chromium-headless-shell` ' +
        '(Debian/Ubuntu), or point CHROME_PATH at a Chrome/Chromium binary.',
    );
  }
  return found;
}

/**
 * The desktop Chromium (run headless), for what the headless shell lacks: notifications, whose permission stays
 * "denied" there whatever is granted. CHROME_PATH, else Debian's /usr/bin/chromium.
 */
export function requireDesktopChromium(): string {
  const found = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate) => candidate && !candidate.endsWith('headless-shell') && fs.existsSync(candidate),
  );
  if (!found) {
    throw new Error(
      'The notification tests need the desktop Chromium: install it with `apt-get install -y chromium`, or point ' +
        'CHROME_PATH at a Chrome/Chromium binary.',
    );
  }
  return found;
}
