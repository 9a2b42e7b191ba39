import { localeFromPath, localizePath, stripLocale } from '@kabari/shared/i18n/locale';

// The build manifest supplies route rules; a rule for a path may redirect, an external
// redirect is a full page load. host/route-rules.json is checked and copied into the build as
// /route-rules.json (host/build-info-plugin.js), served no-cache: a deployment changes them.

export const routeRulesUrl = '/route-rules.json';

export interface RouteRule {
  /** A path of the app (localized for /id pages) or an absolute URL elsewhere. */
  redirect: string;
}

export type RouteRules = Record<string, RouteRule>;

export async function fetchRouteRules(fetchImpl: typeof fetch = fetch): Promise<RouteRules> {
  const response = await fetchImpl(routeRulesUrl, { cache: 'no-cache', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${routeRulesUrl}: HTTP ${response.status}`);
  const body: unknown = await response.json();
  const rules = typeof body === 'object' && body !== null ? (body as { rules?: unknown }).rules : undefined;
  if (typeof rules !== 'object' || rules === null) throw new Error(`${routeRulesUrl}: no rules`);
  return rules as RouteRules;
}

/** Rules are written for the English path without a trailing slash; they hold for the /id twin too. */
export function rulePath(pathname: string): string {
  const path = stripLocale(pathname);
  return path === '/' ? path : path.replace(/\/+$/, '');
}

export type RuleOutcome = { kind: 'external'; url: string } | { kind: 'internal'; path: string };

/** What a rule does for the page at this URL, if a rule applies. */
export function applyRouteRules(rules: RouteRules, url: URL): RuleOutcome | null {
  const rule = Object.hasOwn(rules, rulePath(url.pathname)) ? rules[rulePath(url.pathname)] : undefined;
  if (!rule || typeof rule.redirect !== 'string') return null;
  const target = new URL(rule.redirect, url.origin);
  if (target.origin !== url.origin) return { kind: 'external', url: target.toString() };
  const path = localizePath(target.pathname, localeFromPath(url.pathname));
  // The query and hash of the page travel along unless the rule sets its own.
  const search = target.search || url.search;
  const hash = target.hash || url.hash;
  const next = `${path}${search}${hash}`;
  return next === `${url.pathname}${url.search}${url.hash}` ? null : { kind: 'internal', path: next };
}
