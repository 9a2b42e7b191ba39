// The contract between scripts/bench.mjs and the bench modules in scripts/bench/<name>.mjs.
//
// A module exports:
//   name         string, the name `--only` selects it by (same as its file name)
//   key          string, where its results go in bench/results.json (defaults to name)
//   description  one line for --help
//   needsServer  boolean (default true): whether the production server must be running
//   run(context) → Promise<results>  the measurement; results must be JSON-serialisable
//   format(results) → string          its part of the printed report
//   measure(results, budget) → number | null   the actual value for a budget of its suite
//   leftOut(budget, options) → string | null    optional: why that budget's route was not measured on request
//
// Keep modules independent of each other: each launches and closes its own browser, etc.

/**
 * @typedef {object} BenchContext
 * @property {string} repoRoot
 * @property {string} baseUrl the running app, e.g. http://127.0.0.1:41234 (no trailing slash)
 * @property {{ url: string, port: number | null, dataDir: string | null } | null} server null with --url
 * @property {{ path: string, source: string, flags: string[] }} chrome the browser every module launches
 * @property {string} reportsDir bench/reports (git-ignored): per-run artefacts such as Lighthouse HTML
 * @property {AbortSignal} signal aborted on Ctrl-C/SIGTERM: check it between steps and stop launching things
 * @property {Record<string, string | boolean>} options parsed command-line options (e.g. runs)
 * @property {(fn: () => Promise<void> | void) => () => void} onCleanup runs fn on exit or Ctrl-C (at once if
 *   the interrupt already began: register right after launching something); returns an unregister
 * @property {(message: string) => void} log progress line on stderr
 */

/**
 * @typedef {object} BenchModule
 * @property {string} name
 * @property {string} [key]
 * @property {string} description
 * @property {boolean} [needsServer]
 * @property {(context: BenchContext) => Promise<any>} run
 * @property {(results: any) => string} format
 * @property {(results: any, budget: import('../budgets.mjs').Budget) => number | null} [measure]
 * @property {(budget: import('../budgets.mjs').Budget, options: Record<string, string | boolean>) => string | null} [leftOut]
 */

export {};
