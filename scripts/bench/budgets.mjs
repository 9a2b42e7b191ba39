// The performance budgets. Each names the bench module that measures it and the metric that module's
// `measure(results, budget)` reads; budgets added later go at the end. The pages' budgets are handed to Lighthouse
// CI as its assertions (lighthouse.mjs), which checks them on the median of each page's runs.

/**
 * @typedef {object} Budget
 * @property {string} id stable key in results.json
 * @property {string} suite the bench module that measures it (scripts/bench/<suite>.mjs)
 * @property {string} route
 * @property {string} metric passed to the module's `measure`
 * @property {string} label what is compared, for the printed line
 * @property {number} [max] pass when actual ≤ max
 * @property {number} [min] pass when actual ≥ min
 * @property {string} [unit]
 * @property {string} [profile] the network profile a Lighthouse figure is taken under (default: Lighthouse's own)
 * @property {string} why
 */

import { coreRoutes, profileLabel, profileNames, publicRoutes } from './lib/pages.mjs';

/** Why each page of the core set must feel instant on a phone. */
const coreWhy = {
  '/': 'the home page, where a visitor searches a number',
  '/enter-link': 'the page a relative opens from an SMS, on whatever phone they have',
  '/enter-link+voice-note': 'the same page with the requester’s voice note, which is not fetched before Play',
  '/location-failed': 'the recipient’s next page, on the same phone and connection',
  '/share': 'the recipient’s next page, on the same phone and connection',
};

/**
 * Lighthouse on the home page and the recipient's pages, under each network profile: the score, the largest
 * paint and the main thread's blocking time.
 * @returns {Budget[]}
 */
function coreLighthouseBudgets() {
  return profileNames.flatMap((profile) =>
    coreRoutes.flatMap((route) => {
      const slug = route === '/' ? 'home' : route.slice(1).replace('+', '-');
      const why = coreWhy[/** @type {keyof typeof coreWhy} */ (route)];
      const under = `(median, ${profileLabel(profile)})`;
      return [
        { metric: 'score', label: `Lighthouse mobile score ${under}`, min: 0.95 },
        { metric: 'lcpMs', label: `largest contentful paint ${under}`, max: 2500, unit: 'ms' },
        { metric: 'tbtMs', label: `total blocking time ${under}`, max: 200, unit: 'ms' },
      ].map((limit) => ({
        id: `${slug}.lighthouse-${limit.metric}${profile === 'default' ? '' : `@${profile}`}`,
        suite: 'lighthouse',
        route,
        profile,
        why,
        ...limit,
      }));
    }),
  );
}

/** @type {Budget[]} */
export const budgets = [
  // JavaScript a page loads, as transferred (the server's brotli), measured by Lighthouse in the same runs.
  ...[
    { route: '/', max: 150, why: 'the home page' },
    {
      route: '/enter-link',
      max: 100,
      why: 'the page a relative opens from an SMS, on a phone (React, the light container and the page)',
    },
    {
      route: '/enter-link+voice-note',
      max: 100,
      why: 'the consent page with a voice note: the player is the browser’s own',
    },
    { route: '/location-failed', max: 100, why: 'the recipient’s next pages, on the same phone' },
    { route: '/share', max: 100, why: 'the recipient’s next pages, on the same phone' },
  ].map(
    ({ route, max, why }) =>
      /** @type {Budget} */ ({
        id: `${route === '/' ? 'home' : route.slice(1).replace('+', '-')}.js-transfer`,
        suite: 'lighthouse',
        route,
        metric: 'scriptKB',
        label: 'JavaScript transferred (median)',
        max,
        unit: 'KB',
        why,
      }),
  ),
  {
    id: 'enter-link-voice-note.js-added',
    suite: 'lighthouse',
    route: '/enter-link+voice-note',
    metric: 'scriptBytesOverPlainLink',
    label: 'JavaScript transferred beyond the same page without a voice note',
    max: 0,
    unit: 'bytes',
    why: 'a voice note adds no script to the page a relative opens first',
  },
  {
    id: 'live-events.p99-1000',
    suite: 'live-events',
    route: '/api/v1/locate/events',
    metric: 'p99@1000',
    label: 'event committed → SSE stream, p99 with 1,000 streams open (median of the rounds)',
    max: 50,
    unit: 'ms',
    why: "a recipient's position reaches the requester's map at once",
  },
  {
    id: 'live-events.p99-10000',
    suite: 'live-events',
    route: '/api/v1/locate/events',
    metric: 'p99@10000',
    label: 'event committed → SSE stream, p99 with 10,000 streams open (median of the rounds)',
    max: 10,
    unit: 'ms',
    why: "a recipient's position reaches the requester's map at once",
  },
  ...['pglite', 'postgres'].flatMap((database) =>
    [
      {
        slug: 'healthz',
        metric: 'healthz',
        route: 'GET /healthz',
        why: 'the cost of the request pipeline itself (logging, headers, limiter), seen from outside',
      },
      {
        slug: 'subscribe-info',
        metric: 'subscribeInfo',
        route: 'GET /api/v1/personnal/subscribe/info',
        why: 'called on every protected navigation',
      },
      {
        slug: 'request-history',
        metric: 'history',
        route: 'GET /api/v1/requests',
        why: "the requester's dashboard: the request history, read on every visit",
      },
    ].map(({ slug, metric, route, why }) => ({
      id: `${slug}.throughput-ratio-${database}`,
      suite: 'http-throughput',
      route,
      metric: `${metric}@${database}`,
      label: `requests/s ÷ bare Fastify giving the same answer, ${database === 'pglite' ? 'PGlite' : 'PostgreSQL'} (medians, autocannon in its own process)`,
      min: 0.5,
      why,
    })),
  ),
  ...[
    {
      id: 'soak.failures',
      metric: 'failures',
      label: 'loops that failed and positions that never reached the stream',
      max: 0,
      why: 'nothing a family does is refused or lost however long the server runs',
    },
    {
      id: 'soak.memory-growth',
      metric: 'memoryGrowth',
      label: "the server's resident memory, last minutes ÷ first minutes after the warm-up, less 1",
      max: 0.1,
      why: 'a leak would end in an out-of-memory restart in the middle of someone’s live sharing',
    },
    {
      id: 'soak.p99-growth',
      metric: 'p99Growth',
      label: 'p99 latency of every answer, last minutes ÷ first minutes after the warm-up',
      max: 1.5,
      why: 'a server that slows down as it runs would fail its users by evening',
    },
    {
      id: 'soak.database-connections',
      metric: 'maxConnections',
      label: 'database connections the server holds, most seen after the warm-up',
      max: 12,
      why: 'the pool (10) and the two listening connections (account changes, live events): PostgreSQL serves several instances',
    },
  ].map((budget) => ({ ...budget, suite: 'soak', route: 'the whole loop' })),
  ...coreLighthouseBudgets(),
  // Every public page, in each language, as fast on a phone as the home page.
  ...publicRoutes.map(
    (route) =>
      /** @type {Budget} */ ({
        id: `public${route.replace(/\/$/, '').replaceAll('/', '.')}.lighthouse-score`,
        suite: 'lighthouse',
        route,
        metric: 'score',
        label: 'Lighthouse mobile score (median)',
        min: 0.95,
        why: 'a public page, read on a phone',
      }),
  ),
  // The capacity of one instance for what a live share sends.
  {
    id: 'positions.per-second-postgres',
    suite: 'http-throughput',
    route: 'POST /api/v1/share/links/:token/positions',
    metric: 'positions@postgres',
    label: 'positions stored a second on PostgreSQL, per-link and per-address limits counted (median of the rounds)',
    min: 1000,
    unit: '/s',
    why: 'how many relatives one instance takes live-sharing at once',
  },
  // The sign-up's payment step on /id, on a phone: held to the home page's own limits.
  ...[
    {
      id: 'payment-step.js-transfer',
      metric: 'scriptKB',
      label: 'JavaScript transferred from "Continue" to QRIS offered, beyond the home page (median, 4× CPU, slow 4G)',
      max: 150,
      unit: 'KB',
    },
    {
      id: 'payment-step.blocking',
      metric: 'blockingMs',
      label:
        'main thread blocked (long tasks over 50 ms) from "Continue" to QRIS offered, the account step\'s filling included (median)',
      max: 200,
      unit: 'ms',
    },
    {
      id: 'payment-step.sign-up-shown',
      metric: 'signUpShownMs',
      label: 'from "Continue" to the sign-up dialog ready to type in (median)',
      max: 2500,
      unit: 'ms',
    },
    {
      id: 'payment-step.payment-shown',
      metric: 'paymentShownMs',
      label: 'from "Continue to payment" to QRIS offered first (median)',
      max: 2500,
      unit: 'ms',
    },
  ].map(
    (budget) =>
      /** @type {Budget} */ ({
        ...budget,
        suite: 'payment-step',
        route: '/id/ (sign-up, payment step)',
        why: 'an Indonesian family pays with QRIS from a phone: the step must open as fast as the home page loads',
      }),
  ),
];
