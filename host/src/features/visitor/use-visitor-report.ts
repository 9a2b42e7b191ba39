import { useEffect } from 'react';
import { isRecipientPage } from './recipient-pages';
import { ensureVisitorId } from './visitor-id';
import { visitorAlreadyReported } from './visitor-report-flag';

let started = false;

/** When the browser has nothing better to do. */
function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 5_000 });
  else setTimeout(task, 1_000);
}

/** After the page has loaded (its remote page included), when the browser is idle. */
function afterLoadWhenIdle(task: () => void): void {
  if (document.readyState === 'complete') whenIdle(task);
  else window.addEventListener('load', () => whenIdle(task), { once: true });
}

/**
 * What a page load does about the visitor: the visitor id cookies, then (once per visitor and host) the device
 * report, about the page the visit began on. Nothing at all when the visit begins on a recipient's page: a link's
 * recipient has agreed to nothing yet. The report's code (ua-parser-js) loads only when a report is due.
 */
export function startVisitorReport(): void {
  const landingUrl = window.location.href;
  if (isRecipientPage(window.location.pathname)) return;
  const visitorId = ensureVisitorId();
  if (visitorAlreadyReported(visitorId)) return;
  // Loading the report's code (ua-parser-js) and building the report are separate idle tasks:
  // together they would be one long task competing with the page's first interactions.
  afterLoadWhenIdle(() => {
    import('./visitor-report')
      .then(({ reportVisitor }) => whenIdle(() => void reportVisitor(visitorId, fetch, landingUrl)))
      .catch((error: unknown) => console.warn('[kabari] visitor report', error));
  });
}

/** Once per page load, after hydration. */
export function useVisitorReport(): void {
  useEffect(() => {
    if (started) return;
    started = true;
    startVisitorReport();
  }, []);
}
