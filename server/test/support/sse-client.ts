import http from 'node:http';

export interface ServerSentEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: ServerSentEvent[];
  /** Raw text received, heartbeats included. */
  text(): string;
  ended: Promise<void>;
  /** Resolves with the events once `predicate` holds (checked on every chunk); rejects after `timeoutMs`. */
  waitFor(predicate: (events: ServerSentEvent[]) => boolean, timeoutMs?: number): Promise<ServerSentEvent[]>;
  close(): void;
}

/** A minimal EventSource for tests: opens the stream and parses its events as they arrive. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection & { body?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      response.setEncoding('utf8');
      const status = response.statusCode ?? 0;
      let raw = '';
      let buffer = '';
      const events: ServerSentEvent[] = [];
      const waiters = new Set<() => void>();
      const ended = new Promise<void>((resolveEnd) => {
        response.on('end', resolveEnd);
        response.on('close', resolveEnd);
        response.on('error', () => resolveEnd());
      });
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let boundary = buffer.indexOf('\n\n');
        while (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          boundary = buffer.indexOf('\n\n');
          const event: ServerSentEvent = { id: undefined, event: 'message', data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            if (colon === 0) continue;
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') event.id = value;
            else if (field === 'event') event.event = value;
            else if (field === 'data') {
              event.data = hasData ? `${event.data}\n${value}` : value;
              hasData = true;
            }
          }
          if (hasData) events.push(event);
        }
        for (const waiter of waiters) waiter();
      });
      const connection: SseConnection & { body?: string } = {
        status,
        headers: response.headers,
        events,
        text: () => raw,
        ended,
        waitFor(predicate, timeoutMs = 5000) {
          if (predicate(events)) return Promise.resolve(events);
          return new Promise((resolveWait, rejectWait) => {
            const check = () => {
              if (!predicate(events)) return;
              clearTimeout(timer);
              waiters.delete(check);
              resolveWait(events);
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              rejectWait(new Error(`condition not met within ${timeoutMs} ms; received: ${JSON.stringify(events)}`));
            }, timeoutMs);
            waiters.add(check);
          });
        },
        close: () => {
          request.destroy();
        },
      };
      if (status !== 200) {
        // An error answer is JSON: read it whole.
        void ended.then(() => resolve({ ...connection, body: raw }));
        return;
      }
      resolve(connection);
    });
    request.on('error', reject);
  });
}

/**
 * A new stream (no Last-Event-ID), once it is live: resolved after its `ready` event. An event committed before the
 * server read the newest id for `ready` is covered by it, not sent (the browser reloads then), so a test that
 * commits right after the headers arrive races the server; from `ready` on, every committed event is sent.
 */
export async function openLiveStream(url: string, headers: Record<string, string>): Promise<SseConnection> {
  const connection = await openSse(url, headers);
  if (connection.status !== 200) throw new Error(`the stream answered ${connection.status}: ${connection.body}`);
  await connection.waitFor((events) => events.some((event) => event.event === 'ready'));
  return connection;
}
