import { useEffect } from 'react';
import { repeatWhileInView } from '@kabari/shared/ui/repeat-while-in-view';
import { recordMapView } from '../../lib/map-views-api';

/** How often an open map says it is still open (the server takes an opening unheard of for 3 minutes as closed). */
export const MAP_VIEW_EVERY_MS = 60_000;

/**
 * While the recipient shares, tells the server that the requester has the request's map open: when it opens, every
 * minute while the page is in view, and on coming back to it. The recipient's page shows who looked and when.
 */
export function useMapView(requestId: string, sharing: boolean): void {
  useEffect(() => {
    if (!sharing) return;
    let viewId: number | undefined;
    let ended = false;
    const stop = repeatWhileInView(() => {
      recordMapView(requestId, viewId).then(
        (answer) => {
          if (!ended) viewId = answer.viewId ?? undefined;
        },
        // Not recorded this time: the next minute tries again.
        () => undefined,
      );
    }, MAP_VIEW_EVERY_MS);
    return () => {
      ended = true;
      stop();
    };
  }, [requestId, sharing]);
}
