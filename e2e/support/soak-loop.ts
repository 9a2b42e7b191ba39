// The product's whole loop, over and over at a steady rate, for the soak test: a short run in the end-to-end suite
// (tests/soak.spec.ts) and a long one in the bench (scripts/bench/soak.mjs, which compiles this file with swc as it
// does the sign-up helper). Each loop is one family:
// - a visitor signs up and pays (sandbox card) and makes a trackable link (startLiveFamily, which the bench's
//   throughput run uses too);
// - the relative opens the link, shares (the IP's place) and turns live sharing on; the requester opens the
//   dashboard's live stream; the relative sends positions, each of which must reach it;
// - the requester reads the history and the positions, opens the map and reads the subscription;
// - the relative stops sharing (odd loops) or erases everything (even loops); the requester signs out.
// Loops start on a fixed schedule whatever the server's speed (a slower server means more loops at once, as with
// real users), and every figure is kept per window of time, so that a run shows whether memory and latency stay
// flat as it goes on.
import { signUpSubscriber } from './subscriber';

export interface SoakOptions {
  baseURL: string;
  seconds: number;
  loopsPerSecond: number;
  windowSeconds: number;
  /** Positions each relative sends, one every `positionIntervalMs` (defaults 3 and 1,000). */
  positionsPerLoop?: number;
  positionIntervalMs?: number;
  /** Figures read from outside the loop at the end of each window (the server's memory, database connections). */
  sample?: () => Promise<Record<string, number>>;
  onWindow?: (window: SoakWindow) => void;
  signal?: AbortSignal;
}

export interface SoakWindow {
  index: number;
  /** Seconds from the start of the run to the end of this window. */
  endSeconds: number;
  loopsStarted: number;
  loopsCompleted: number;
  /** API calls answered in this window. */
  requests: number;
  failures: number;
  /** The first few failures, as messages. */
  failureExamples: string[];
  latencyMs: { p50: number | null; p99: number | null; max: number | null };
  /** From posting a position to reading it on the requester's stream. */
  eventLatencyMs: { p50: number | null; p99: number | null; max: number | null };
  sample: Record<string, number>;
}

export interface SoakResult {
  windows: SoakWindow[];
  loopsStarted: number;
  loopsCompleted: number;
  failures: number;
  positionsSent: number;
  positionsSeen: number;
}

const EVENT_TIMEOUT_MS = 10_000;

interface Bucket {
  loopsStarted: number;
  loopsCompleted: number;
  latencies: number[];
  eventLatencies: number[];
  failures: string[];
}

const emptyBucket = (): Bucket => ({
  loopsStarted: 0,
  loopsCompleted: 0,
  latencies: [],
  eventLatencies: [],
  failures: [],
});

function quantiles(values: number[]): SoakWindow['latencyMs'] {
  if (values.length === 0) return { p50: null, p99: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

/** An address of its own for each loop's requester and relative: the API throttles per address, as in production. */
function addressOf(loop: number, relative: boolean): string {
  return `${relative ? 172 : 10}.${relative ? 16 + ((loop >> 16) & 15) : (loop >> 16) & 255}.${(loop >> 8) & 255}.${loop & 255}`;
}

/** Waits `ms`, or until `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The requester's live stream (GET /api/v1/locate/events), read until closed: each `position` event is recognised
 * by its accuracy, which the loop makes unique to each position it sends. `opened` resolves on the stream's `ready`
 * event, as the dashboard waits for it: the stream carries the events after the id `ready` names, and what came
 * before it (a position posted while the stream was starting) the dashboard reloads instead.
 */
function openStream(baseURL: string, token: string, address: string) {
  const controller = new AbortController();
  const waiting = new Map<number, () => void>();
  const seen = new Set<number>();
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const answered = fetch(new URL('/api/v1/locate/events', baseURL), {
    headers: { accept: 'text/event-stream', cookie: `token=${token}`, 'x-forwarded-for': address },
    signal: controller.signal,
  }).then((response) => {
    if (response.status !== 200 || !response.body) throw new Error(`the live stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = '';
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          pending += value;
          const events = pending.split('\n\n');
          pending = events.pop() ?? '';
          for (const event of events) {
            if (/^event: ready$/m.test(event)) markReady();
            const match = /^event: position\ndata: .*"accuracyMeters": ?(\d+)[,}]/m.exec(event);
            if (!match) continue;
            const accuracy = Number(match[1]);
            seen.add(accuracy);
            waiting.get(accuracy)?.();
          }
        }
      } catch {
        // Closed by the loop.
      }
    })();
  });
  const opened = answered.then(
    () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the live stream sent no ready event within ${EVENT_TIMEOUT_MS} ms`)),
          EVENT_TIMEOUT_MS,
        );
        void ready.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  );
  return {
    opened,
    /** Resolves once the position with this accuracy is on the stream; rejects after EVENT_TIMEOUT_MS. */
    positionSeen(accuracy: number): Promise<void> {
      if (seen.has(accuracy)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(accuracy);
          reject(new Error(`position ${accuracy} did not reach the requester's stream within ${EVENT_TIMEOUT_MS} ms`));
        }, EVENT_TIMEOUT_MS);
        waiting.set(accuracy, () => {
          clearTimeout(timer);
          waiting.delete(accuracy);
          resolve();
        });
      });
    },
    close: () => controller.abort(),
  };
}

interface CallInit {
  method?: string;
  body?: unknown;
}

/** One API call, timed (`took`); throws unless it answers 200. */
async function callApi<T>(
  baseURL: string,
  label: string,
  path: string,
  headers: Record<string, string>,
  init: CallInit = {},
  took: (ms: number) => void = () => {},
): Promise<T> {
  const before = performance.now();
  const response = await fetch(new URL(path, baseURL), {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await response.text();
  took(performance.now() - before);
  if (response.status !== 200) throw new Error(`${label} answered ${response.status}: ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { data: T }).data;
}

export interface LiveFamily {
  /** The requester's headers: their session and their address. */
  requester: Record<string, string> & { 'x-forwarded-for': string };
  /** The relative's headers: their address. */
  relative: Record<string, string>;
  subscriberToken: string;
  requestId: string;
  /** The link's share routes: /api/v1/share/links/<token>. */
  sharePath: string;
}

/**
 * Family number `index` up to live sharing: the requester signs up and pays, makes a trackable link; the relative
 * opens it, shares and turns live sharing on for 15 minutes. `took` is told how long each call took.
 */
export async function startLiveFamily(
  baseURL: string,
  index: number,
  took: (ms: number) => void = () => {},
): Promise<LiveFamily> {
  const address = addressOf(index, false);
  const relative = { 'x-forwarded-for': addressOf(index, true) };
  const before = performance.now();
  const subscriber = await signUpSubscriber(baseURL, {
    email: `soak-${Date.now()}-${index}@example.com`,
    headers: { 'x-forwarded-for': address },
  });
  took(performance.now() - before);
  const requester = { authorization: subscriber.token, 'x-forwarded-for': address };
  const api = <T>(label: string, path: string, headers: Record<string, string>, init?: CallInit) =>
    callApi<T>(baseURL, label, path, headers, init, took);
  const { request } = await api<{ request: { id: string; url: string } }>('create link', '/api/v1/links', requester, {
    method: 'POST',
    body: { title: `Soak ${index}`, locale: index % 2 ? 'en' : 'id' },
  });
  const token = new URL(request.url).searchParams.get('token');
  if (!token) throw new Error(`the link has no token: ${request.url}`);
  const sharePath = `/api/v1/share/links/${encodeURIComponent(token)}`;
  await api('open link', sharePath, relative);
  await api('consent', `${sharePath}/consent`, relative, { method: 'POST' });
  await api('live', `${sharePath}/live`, relative, { method: 'POST', body: { minutes: 15 } });
  return { requester, relative, subscriberToken: subscriber.token, requestId: request.id, sharePath };
}

export async function runSoakLoop(options: SoakOptions): Promise<SoakResult> {
  const { baseURL, seconds, loopsPerSecond, windowSeconds, signal } = options;
  const positionsPerLoop = options.positionsPerLoop ?? 3;
  const positionIntervalMs = options.positionIntervalMs ?? 1_000;
  const started = performance.now();
  const windowOf = () => Math.floor((performance.now() - started) / 1000 / windowSeconds);
  const buckets = new Map<number, Bucket>();
  const bucket = () => {
    const index = windowOf();
    let found = buckets.get(index);
    if (!found) buckets.set(index, (found = emptyBucket()));
    return found;
  };
  const totals = { loopsStarted: 0, loopsCompleted: 0, failures: 0, positionsSent: 0, positionsSeen: 0 };
  const fail = (message: string) => {
    totals.failures += 1;
    bucket().failures.push(message);
  };

  const api = <T>(label: string, path: string, headers: Record<string, string>, init?: CallInit) =>
    callApi<T>(baseURL, label, path, headers, init, (ms) => bucket().latencies.push(ms));

  async function loop(index: number): Promise<void> {
    const family = await startLiveFamily(baseURL, index, (ms) => bucket().latencies.push(ms));
    const { requester, relative, requestId, sharePath: share } = family;
    const stream = openStream(baseURL, family.subscriberToken, requester['x-forwarded-for']);
    try {
      await stream.opened;
      for (let position = 0; position < positionsPerLoop; position += 1) {
        if (position > 0) await sleep(positionIntervalMs, signal);
        const accuracy = 10 + position;
        const seen = stream.positionSeen(accuracy);
        const posted = performance.now();
        totals.positionsSent += 1;
        await api('position', `${share}/positions`, relative, {
          method: 'POST',
          body: {
            latitude: -6.2 + (index % 1000) / 10_000,
            longitude: 106.8 + position / 1000,
            accuracy,
            recordedAt: new Date().toISOString(),
          },
        });
        await seen;
        totals.positionsSeen += 1;
        bucket().eventLatencies.push(performance.now() - posted);
      }
      await api('history', '/api/v1/requests?page=1&pageSize=10', requester);
      await api('positions', `/api/v1/requests/${requestId}/positions`, requester);
      await api('map view', `/api/v1/requests/${requestId}/views`, requester, { method: 'POST', body: {} });
      await api('subscription', '/api/v1/personnal/subscribe/info', requester);
      await api('shown to the relative', `${share}/views`, relative);
      await api(index % 2 ? 'stop' : 'stop and erase', `${share}/${index % 2 ? 'stop' : 'withdraw'}`, relative, {
        method: 'POST',
      });
    } finally {
      stream.close();
    }
    await api('sign out', '/api/v1/auth/logout', requester, { method: 'POST' });
  }

  const running = new Set<Promise<void>>();
  const total = Math.max(1, Math.round(seconds * loopsPerSecond));
  const windows: SoakWindow[] = [];
  let reported = 0;

  async function closeWindows(upTo: number): Promise<void> {
    for (; reported < upTo; reported += 1) {
      const found = buckets.get(reported) ?? emptyBucket();
      const window: SoakWindow = {
        index: reported,
        endSeconds: (reported + 1) * windowSeconds,
        loopsStarted: found.loopsStarted,
        loopsCompleted: found.loopsCompleted,
        requests: found.latencies.length,
        failures: found.failures.length,
        failureExamples: found.failures.slice(0, 3),
        latencyMs: quantiles(found.latencies),
        eventLatencyMs: quantiles(found.eventLatencies),
        sample: options.sample ? await options.sample() : {},
      };
      buckets.delete(reported);
      windows.push(window);
      options.onWindow?.(window);
    }
  }

  for (let index = 0; index < total && !signal?.aborted; index += 1) {
    await sleep(started + (index / loopsPerSecond) * 1000 - performance.now(), signal);
    await closeWindows(windowOf());
    totals.loopsStarted += 1;
    bucket().loopsStarted += 1;
    const done = loop(index).then(
      () => {
        totals.loopsCompleted += 1;
        bucket().loopsCompleted += 1;
      },
      (error: unknown) => fail(`loop ${index}: ${error instanceof Error ? error.message : String(error)}`),
    );
    running.add(done);
    void done.finally(() => running.delete(done));
  }
  await Promise.all(running);
  await closeWindows(windowOf() + 1);
  return { windows, ...totals };
}
