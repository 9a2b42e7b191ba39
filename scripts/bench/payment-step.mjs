// The sign-up's payment step on /id, as an Indonesian visitor reaches it on a phone: the home page, a number
// searched, "Continue" (the sign-up dialog, whose JavaScript the home page does not load), the account step, then
// "Continue to payment" (QRIS first, then e-wallets, bank transfers and the card). Chromium at 360 px with
// Lighthouse's mobile conditions applied through the DevTools protocol (its CPU slowdown of 4 and its slow 4G: 150 ms
// round trip, 1.6 Mbps down, 750 Kbps up), a fresh profile (nothing cached) each run. Measured from each click to
// what it opens being shown: the JavaScript transferred meanwhile (the dialog's and the payment step's own, never
// loaded with the home page), the main thread's blocking time (each long task's part over 50 ms) and the time it
// took. The totals span from the first click to QRIS shown, filling the account step included: what the dialog
// fetches and runs while the visitor types (step 2's form, fetched when the browser is idle) counts too. The same limits as the home page's: the budgets are its JavaScript (150 KB), blocking time (200 ms) and
// largest paint (2.5 s).
import os from 'node:os';
import { median, table } from './lib/format.mjs';

export const name = 'payment-step';
export const key = 'paymentStep';
export const description =
  "the sign-up's payment step on /id on a phone (4× CPU slowdown, slow 4G): JavaScript transferred, blocking time and time to show, from the click that opens the sign-up to QRIS offered first (median of 5 runs)";

const RUNS = 5;
/** Lighthouse's mobile defaults (simulated there; applied here, which Chromium's DevTools protocol does). */
const CPU_SLOWDOWN = 4;
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6384 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/**
 * One visitor's way to the payment step, in a fresh context: the figures of the two clicks that load it.
 * @param {import('playwright-core').Browser} browser @param {string} baseUrl @param {number} run
 */
async function reachPaymentStep(browser, baseUrl, run) {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'id-ID', isMobile: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    /** @type {Map<string, string>} */
    const types = new Map();
    let scriptBytes = 0;
    let scripts = 0;
    cdp.on('Network.responseReceived', (event) => types.set(event.requestId, event.type));
    cdp.on('Network.loadingFinished', (event) => {
      if (types.get(event.requestId) !== 'Script') return;
      scriptBytes += event.encodedDataLength;
      scripts += 1;
    });
    // Every long task of the page, with when it started.
    await page.addInitScript(() => {
      /** @type {{ start: number, duration: number }[]} */
      const tasks = [];
      Object.defineProperty(globalThis, '__benchLongTasks', { value: tasks });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
    });

    await page.goto(`${baseUrl}/id/`, { waitUntil: 'load' });
    await page.getByLabel('Nomor ponsel').fill('812 3456 7890');
    await page.getByRole('button', { name: 'Cari' }).click();
    const facts = page.getByRole('dialog', { name: 'Tentang nomor ini' });
    await facts.getByRole('button', { name: 'Lanjutkan' }).waitFor();

    /** The figures of a click, from just before it until `shown` resolves. */
    const blockingBetween = (/** @type {number} */ from, /** @type {number} */ to) =>
      page.evaluate(
        ([start, end]) =>
          /** @type {{ start: number, duration: number }[]} */ (/** @type {any} */ (globalThis).__benchLongTasks)
            .filter((task) => task.start >= start && task.start < end)
            .reduce((sum, task) => sum + Math.max(0, task.duration - 50), 0),
        [from, to],
      );
    const bytesAtStart = scriptBytes;
    const scriptsAtStart = scripts;
    const measure = async (/** @type {() => Promise<void>} */ click, /** @type {() => Promise<void>} */ shown) => {
      const bytesBefore = scriptBytes;
      const scriptsBefore = scripts;
      const startedAt = await page.evaluate(() => performance.now());
      await click();
      await shown();
      const endedAt = await page.evaluate(() => performance.now());
      return {
        startedAt,
        endedAt,
        scriptKB: (scriptBytes - bytesBefore) / 1024,
        scripts: scripts - scriptsBefore,
        blockingMs: await blockingBetween(startedAt, endedAt),
        shownMs: endedAt - startedAt,
      };
    };

    const dialog = page.getByRole('dialog', { name: 'Buat akun Anda' });
    const signUp = await measure(
      () => facts.getByRole('button', { name: 'Lanjutkan' }).click(),
      () => dialog.getByLabel('Email').waitFor(),
    );
    await dialog.getByLabel('Email').fill(`bench-payment-step-${Date.now()}-${run}@example.com`);
    await dialog.getByLabel('Nama Anda').fill('Rina');
    await dialog.getByRole('checkbox', { name: /18 tahun atau lebih/ }).check();
    await dialog
      .getByRole('checkbox', { name: /Ketentuan Penggunaan/ })
      .first()
      .check();
    const methods = dialog.getByRole('group', { name: 'Metode pembayaran' });
    const payment = await measure(
      () => dialog.getByRole('button', { name: 'Lanjut ke pembayaran' }).click(),
      async () => {
        const qris = methods.getByRole('radio', { name: 'QRIS' });
        await qris.waitFor({ state: 'attached' });
        const offeredFirst = await methods
          .getByRole('radio')
          .first()
          .evaluate((first, other) => first === other, await qris.elementHandle());
        if (!offeredFirst) throw new Error('the payment step does not offer QRIS first');
      },
    );
    // Every long task from the first click to QRIS shown, the account step's filling included.
    const blockingMs = await blockingBetween(signUp.startedAt, payment.endedAt);
    return {
      scriptKB: (scriptBytes - bytesAtStart) / 1024,
      scripts: scripts - scriptsAtStart,
      blockingMs,
      fillingBlockingMs: blockingMs - signUp.blockingMs - payment.blockingMs,
      signUpBlockingMs: signUp.blockingMs,
      paymentBlockingMs: payment.blockingMs,
      signUpShownMs: signUp.shownMs,
      paymentShownMs: payment.shownMs,
    };
  } finally {
    await context.close();
  }
}

/** @param {import('./lib/context.mjs').BenchContext} context */
export async function run(context) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: context.chrome.path,
    args: context.chrome.flags.filter((flag) => flag !== '--headless'),
    headless: true,
  });
  const unregister = context.onCleanup(() => browser.close());
  try {
    const runs = [];
    for (let run = 0; run < RUNS && !context.signal.aborted; run += 1) {
      context.log(`payment-step: run ${run + 1} of ${RUNS}`);
      runs.push(await reachPaymentStep(browser, context.baseUrl, run));
    }
    // Rounded as printed: a tenth of a KB, whole milliseconds.
    const medianOf = (/** @type {keyof (typeof runs)[number]} */ figure) => {
      const value = /** @type {number} */ (median(runs.map((r) => r[figure])));
      return figure === 'scriptKB' ? Math.round(value * 10) / 10 : Math.round(value);
    };
    return {
      cpu: `${os.cpus().length}× ${os.cpus()[0]?.model ?? '?'}`,
      loadAverage: Number((os.loadavg()[0] ?? 0).toFixed(2)),
      runs,
      scriptKB: medianOf('scriptKB'),
      scripts: medianOf('scripts'),
      blockingMs: medianOf('blockingMs'),
      signUpBlockingMs: medianOf('signUpBlockingMs'),
      fillingBlockingMs: medianOf('fillingBlockingMs'),
      paymentBlockingMs: medianOf('paymentBlockingMs'),
      signUpShownMs: medianOf('signUpShownMs'),
      paymentShownMs: medianOf('paymentShownMs'),
    };
  } finally {
    unregister();
    await browser.close();
  }
}

/** @param {any} results */
export function format(results) {
  const rows = results.runs.map((/** @type {any} */ r, /** @type {number} */ i) => [
    String(i + 1),
    r.scriptKB.toFixed(1),
    String(r.scripts),
    `${r.blockingMs.toFixed(0)} (${r.signUpBlockingMs.toFixed(0)} + ${r.fillingBlockingMs.toFixed(0)} + ${r.paymentBlockingMs.toFixed(0)})`,
    r.signUpShownMs.toFixed(0),
    r.paymentShownMs.toFixed(0),
  ]);
  rows.push([
    'median',
    results.scriptKB.toFixed(1),
    String(results.scripts),
    `${results.blockingMs} (${results.signUpBlockingMs} + ${results.fillingBlockingMs} + ${results.paymentBlockingMs})`,
    results.signUpShownMs.toFixed(0),
    results.paymentShownMs.toFixed(0),
  ]);
  return table(
    ['run', 'JS KB', 'scripts', 'blocking ms (sign-up + filling + payment)', 'sign-up shown ms', 'payment shown ms'],
    rows,
  );
}

/** @param {any} results @param {import('./budgets.mjs').Budget} budget */
export function measure(results, budget) {
  const value = results?.[budget.metric];
  return typeof value === 'number' ? value : null;
}

/** @param {any} results */
export function circumstances(results) {
  return results ? `${results.cpu}, load average ${results.loadAverage}` : null;
}
