import { useEffect } from 'react';
import { ensureVisitorId } from './visitor-id';
import { visitorAlreadyReported } from './visitor-report-flag';

let started = false;

/** After the page has settled, when the browser has nothing better to do. */
function whenIdle(task: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 5_000 });
  else setTimeout(task, 1_000);
}

/**
 * Spec §1/§9: on load, the visitor id cookies, then (once per visitor and host) the device report.
 * It runs after hydration; the report's code (ua-parser-js, axios) loads only when a report is due.
 */
export function useVisitorReport(): void {
  useEffect(() => {
    if (started) return;
    started = true;
    const visitorId = ensureVisitorId();
    if (visitorAlreadyReported(visitorId)) return;
    whenIdle(() => {
      import('./visitor-report')
        .then(({ reportVisitor }) => reportVisitor(visitorId))
        .catch((error: unknown) => console.warn('[kabari] visitor report', error));
    });
  }, []);
}
