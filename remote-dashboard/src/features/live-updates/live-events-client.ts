import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';

export interface LiveEventHandlers {
  onRequest(request: LocationRequest): void;
  onPosition(requestId: string, position: Position): void;
  onWithdrawn(requestId: string): void;
  /**
   * Reload what is shown: the server could not replay everything missed (`resync`), or a new stream began
   * (`ready`), and an event may have come between loading the list and the stream opening.
   */
  onResync(): void;
  onConnectionChange(connected: boolean): void;
}

export interface LiveEventsConnection {
  close(): void;
}

const FIRST_RETRY_MS = 3_000;
const LAST_RETRY_MS = 60_000;

function parse<T>(event: MessageEvent<string>): T | null {
  try {
    return JSON.parse(event.data) as T;
  } catch {
    return null;
  }
}

/**
 * GET /api/v1/locate/events through EventSource (the session cookie signs it in). The browser reconnects by
 * itself and sends Last-Event-ID; when the server refused the stream (signed out, too many tabs) EventSource
 * gives up, so a new one is opened later, resuming after the last event received.
 */
export function connectLiveEvents(baseUrl: string, handlers: LiveEventHandlers): LiveEventsConnection {
  let source: EventSource | null = null;
  let lastEventId = '';
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  function remember(event: MessageEvent<string>): void {
    if (event.lastEventId) lastEventId = event.lastEventId;
  }

  /**
   * One user's events commit in the order of their ids (the server sees to it), so an event at or below the
   * last one handled was handled already: a replay overlapping the live stream is not applied twice.
   */
  function fresh(event: MessageEvent<string>): boolean {
    const id = Number(event.lastEventId);
    if (lastEventId && Number.isFinite(id) && id <= Number(lastEventId)) return false;
    remember(event);
    return true;
  }

  function open(): void {
    const query = lastEventId ? `?lastEventId=${encodeURIComponent(lastEventId)}` : '';
    const current = new EventSource(`${baseUrl}/api/v1/locate/events${query}`, { withCredentials: true });
    source = current;
    current.onopen = () => {
      retryMs = FIRST_RETRY_MS;
      handlers.onConnectionChange(true);
    };
    current.onerror = () => {
      handlers.onConnectionChange(false);
      if (current.readyState !== EventSource.CLOSED || closed) return;
      retryTimer = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    };
    current.addEventListener('request', (event: MessageEvent<string>) => {
      if (!fresh(event)) return;
      const request = parse<LocationRequest>(event);
      if (request?.id) handlers.onRequest(request);
    });
    current.addEventListener('position', (event: MessageEvent<string>) => {
      if (!fresh(event)) return;
      const data = parse<{ requestId?: string; position?: Position }>(event);
      if (data?.requestId && data.position) handlers.onPosition(data.requestId, data.position);
    });
    current.addEventListener('withdrawn', (event: MessageEvent<string>) => {
      if (!fresh(event)) return;
      const data = parse<{ requestId?: string }>(event);
      if (data?.requestId) handlers.onWithdrawn(data.requestId);
    });
    current.addEventListener('ready', (event: MessageEvent<string>) => {
      remember(event);
      handlers.onResync();
    });
    current.addEventListener('resync', (event: MessageEvent<string>) => {
      remember(event);
      handlers.onResync();
    });
  }

  open();
  return {
    close: () => {
      closed = true;
      clearTimeout(retryTimer);
      source?.close();
    },
  };
}
