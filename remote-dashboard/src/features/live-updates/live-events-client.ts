import type { LocationRequest, Position } from '@kabari/shared/requests/location-request';

export interface LiveEventHandlers {
  onRequest(request: LocationRequest): void;
  onPosition(requestId: string, position: Position): void;
  onWithdrawn(requestId: string): void;
  /** The server could not replay everything missed: reload what is shown. */
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
      remember(event);
      const request = parse<LocationRequest>(event);
      if (request?.id) handlers.onRequest(request);
    });
    current.addEventListener('position', (event: MessageEvent<string>) => {
      remember(event);
      const data = parse<{ requestId?: string; position?: Position }>(event);
      if (data?.requestId && data.position) handlers.onPosition(data.requestId, data.position);
    });
    current.addEventListener('withdrawn', (event: MessageEvent<string>) => {
      remember(event);
      const data = parse<{ requestId?: string }>(event);
      if (data?.requestId) handlers.onWithdrawn(data.requestId);
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
