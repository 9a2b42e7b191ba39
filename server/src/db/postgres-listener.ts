import { Client } from 'pg';

export interface ListenerLog {
  info(message: string): void;
  error(object: unknown, message: string): void;
}

export interface NotificationHandlers {
  onNotification(payload: string): void;
  /** The connection was lost and is back: notifications sent meanwhile were missed. */
  onReconnected(): void;
  /** The connection was lost: until it is back, no notification arrives. */
  onLost?(): void;
}

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 5_000;

/**
 * LISTEN on a dedicated PostgreSQL connection (a pooled one would be handed to other queries). When the connection
 * drops it reconnects with backoff and says so, so the caller can catch up on what it missed. Resolves once the
 * first LISTEN holds; the returned function stops listening for good.
 */
export async function listenPostgres(
  databaseUrl: string,
  channel: string,
  handlers: NotificationHandlers,
  log: ListenerLog,
): Promise<() => Promise<void>> {
  let client: Client | undefined;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const next = new Client({ connectionString: databaseUrl, keepAlive: true, connectionTimeoutMillis: 10_000 });
    let ready = false;
    let lost = false;
    const onLost = (error?: Error) => {
      // Before LISTEN holds, a failure is connect()'s to report.
      if (!ready || lost) return;
      lost = true;
      if (client === next) client = undefined;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (stopped) return;
      handlers.onLost?.();
      log.error({ err: error }, 'The live events connection to PostgreSQL was lost; reconnecting');
      scheduleReconnect();
    };
    next.on('error', onLost);
    next.on('end', () => onLost(new Error('connection ended')));
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onNotification(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch (error) {
      await next.end().catch(() => undefined);
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    ready = true;
    client = next;
  }

  function scheduleReconnect(): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          if (stopped) return;
          retryMs = FIRST_RETRY_MS;
          log.info('The live events connection to PostgreSQL is back');
          handlers.onReconnected();
        },
        (error: unknown) => {
          if (stopped) return;
          log.error({ err: error }, 'Could not reconnect the live events connection to PostgreSQL');
          retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  await connect();

  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    const current = client;
    client = undefined;
    await current?.end().catch(() => undefined);
  };
}
