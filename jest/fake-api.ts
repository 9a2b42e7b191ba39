// Test helper: the Kabari API, faked at the HTTP seam for the web apps' tests. It answers as the axios instance's
// adapter (so the real API client, the host's interceptors and the envelope's unwrapping all run) and as `fetch`
// (the share page's plain-fetch client). Each route is typed by its path from the server's OpenAPI document; a call
// nobody set an answer for fails the test. Answers and recorded calls are forgotten after each test.
import { apiClient } from '@kabari/shared/api/api-client';
import type {
  ApiBody,
  ApiData,
  ApiMethod,
  ApiMethodName,
  ApiPathParams,
  ApiPathWith,
  ApiQuery,
} from '@kabari/shared/api/api-types';
import { installApiInterceptors, type ApiEffects } from '../host/src/features/api/api-interceptors';

/** A failed answer: the HTTP status, and the envelope's message (and data, when the server sends some). */
interface Failure {
  readonly kind: 'failure';
  readonly status: number;
  readonly message: string;
  readonly data: unknown;
}

/** No answer at all: offline, or the server could not be reached. */
interface Unreachable {
  readonly kind: 'unreachable';
}

/** A file instead of the envelope (a download), with its headers. */
interface FileAnswer {
  readonly kind: 'file';
  readonly body: Blob;
  readonly headers: Record<string, string>;
}

type Operation<M extends ApiMethodName, P extends ApiPathWith<M>> = M & ApiMethod<P>;
/** T, or `Else` where the path has none (no body, no placeholders, no query). */
type OrElse<T, Else> = [T] extends [never] ? Else : T;

/** What the fake saw of one call. */
export interface FakeCall<M extends ApiMethodName, P extends ApiPathWith<M>> {
  /** The JSON body (a Blob for an upload); undefined when none was sent. */
  body: OrElse<ApiBody<P, Operation<M, P>>, undefined>;
  /** The values of the path's `{name}` placeholders, decoded. */
  path: OrElse<ApiPathParams<P, Operation<M, P>>, Record<string, never>>;
  /** The query string, its values as sent. */
  query: OrElse<ApiQuery<P, Operation<M, P>>, Record<string, never>>;
  /** The request's headers, their names in lower case. */
  headers: Record<string, string>;
  /** The URL as sent: its path, and any query written into it (the API client's parameters are in `query`). */
  url: string;
  /** The API client's own options (absent on a plain-fetch call). */
  options: { toastErrors?: boolean; handledStatuses?: readonly number[]; raw?: boolean; responseType?: string };
}

type Answer<M extends ApiMethodName, P extends ApiPathWith<M>> =
  ApiData<P, Operation<M, P>> | Failure | Unreachable | FileAnswer;
type Handler<M extends ApiMethodName, P extends ApiPathWith<M>> =
  Answer<M, P> | ((body: FakeCall<M, P>['body'], call: FakeCall<M, P>) => Answer<M, P> | Promise<Answer<M, P>>);

interface Route {
  method: ApiMethodName;
  path: string;
  pattern: RegExp;
  names: string[];
  handler: unknown;
}

interface Incoming {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, unknown>;
  options: FakeCall<'get', ApiPathWith<'get'>>['options'];
}

type Outcome = { status: number; body: unknown; headers?: Record<string, string> } | Unreachable;

const routes: Route[] = [];
const seen: Array<{ method: ApiMethodName; path: string; call: FakeCall<never, never> }> = [];
const unexpected: string[] = [];

function isAnswerKind(value: unknown, kind: string): boolean {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === kind;
}

function routeOf(method: ApiMethodName, path: string): Route {
  const names: string[] = [];
  const source = path
    .split(/\{(\w+)\}/)
    .map((part, index) => {
      if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part);
      return '([^/]+)';
    })
    .join('');
  return { method, path, pattern: new RegExp(`^${source}$`), names, handler: undefined };
}

/** The route a call goes to: of those that match, the one with the fewest placeholders (`/sms` before `/{id}`). */
function routeFor(method: string, pathname: string): { route: Route; values: string[] } | undefined {
  const matching = routes
    .filter((route) => route.method === method)
    .map((route) => ({ route, values: route.pattern.exec(pathname)?.slice(1) }))
    .filter((match): match is { route: Route; values: string[] } => match.values !== undefined)
    .sort((a, b) => a.route.names.length - b.route.names.length);
  return matching[0];
}

async function answer(incoming: Incoming): Promise<Outcome> {
  const method = incoming.method.toLowerCase();
  const url = new URL(incoming.url, 'http://kabari.test');
  const match = routeFor(method, url.pathname);
  if (!match) {
    const known = routes.map((route) => `${route.method.toUpperCase()} ${route.path}`).join(', ') || 'none';
    unexpected.push(
      `${method.toUpperCase()} ${url.pathname}${url.search}: no answer set for it (set one with fakeApi.on); answers set: ${known}`,
    );
    return { kind: 'unreachable' };
  }
  const { route, values } = match;
  const query: Record<string, unknown> = Object.fromEntries(url.searchParams);
  Object.assign(query, incoming.query);
  const call = {
    body: incoming.body,
    path: Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(values[index] ?? '')])),
    query,
    headers: incoming.headers,
    url: `${url.pathname}${url.search}`,
    options: incoming.options,
  } as FakeCall<never, never>;
  seen.push({ method: route.method, path: route.path, call });
  const handler = route.handler as ((body: unknown, call: unknown) => unknown) | unknown;
  const result = typeof handler === 'function' ? await handler(call.body, call) : handler;
  if (isAnswerKind(result, 'unreachable')) return { kind: 'unreachable' };
  if (isAnswerKind(result, 'file')) {
    const file = result as FileAnswer;
    return { status: 200, body: file.body, headers: file.headers };
  }
  if (isAnswerKind(result, 'failure')) {
    const failure = result as Failure;
    return {
      status: failure.status,
      body: { status: failure.status, message: failure.message, data: failure.data },
    };
  }
  return { status: 200, body: { status: 200, message: 'ok', data: result ?? null } };
}

function bodyOf(data: unknown): unknown {
  if (typeof data !== 'string') return data ?? undefined;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

// The host's interceptors, with effects a test can read instead of toasts and navigation.
const effects = {
  runtimeConfig: jest.fn(async () => ({ apiBaseUrl: '', appId: 'kabari-web' })),
  locale: jest.fn(() => 'en'),
  sessionExpired: jest.fn(),
  forbidden: jest.fn(),
  toastError: jest.fn(),
  toastNetworkError: jest.fn(),
  networkErrorMessage: jest.fn(() => 'Kabari cannot be reached.'),
  // A retry waits for nothing here: the fake has no busy server to wait for.
  wait: jest.fn(async (_ms: number) => undefined),
} satisfies jest.Mocked<ApiEffects>;
installApiInterceptors(apiClient, effects);
let withoutHost = false;

// axios's errors as its own adapters make them (what the interceptors read of one), without importing axios here: it
// is the shared package's dependency.
function axiosError(message: string, code: string, fields: object): Error {
  return Object.assign(new Error(message), { isAxiosError: true, name: 'AxiosError', code, ...fields });
}

type Adapter = Extract<NonNullable<typeof apiClient.defaults.adapter>, (...args: never[]) => unknown>;

const adapter: Adapter = async (config) => {
  const headers = Object.fromEntries(
    Object.entries(config.headers.toJSON()).map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
  const outcome = await answer({
    method: config.method ?? 'get',
    url: `${config.baseURL ?? ''}${config.url ?? ''}`,
    body: bodyOf(config.data),
    headers,
    query: (config.params as Record<string, unknown> | undefined) ?? {},
    options: Object.fromEntries(
      (['toastErrors', 'handledStatuses', 'raw', 'responseType'] as const)
        .filter((name) => config[name] !== undefined)
        .map((name) => [name, config[name]]),
    ),
  });
  if ('kind' in outcome) throw axiosError('Network Error', 'ERR_NETWORK', { config });
  const file = outcome.body instanceof Blob;
  const response = {
    data: file ? outcome.body : JSON.stringify(outcome.body),
    status: outcome.status,
    statusText: '',
    headers: outcome.headers ?? { 'content-type': 'application/json' },
    config,
  };
  if (outcome.status >= 400) {
    const code = outcome.status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST';
    throw axiosError(`Request failed with status code ${outcome.status}`, code, { config, response });
  }
  return response;
};
apiClient.defaults.adapter = adapter;

function fetchHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  if (!headers) return found;
  const entries = Array.isArray(headers)
    ? headers
    : typeof Headers !== 'undefined' && headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers);
  for (const [name, value] of entries) found[String(name).toLowerCase()] = String(value);
  return found;
}

const fetchFake = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const outcome = await answer({
    method: init.method ?? 'GET',
    url,
    body: bodyOf(init.body),
    headers: fetchHeaders(init.headers),
    query: {},
    options: {},
  });
  if ('kind' in outcome) throw new TypeError('Failed to fetch');
  const headers = outcome.headers ?? { 'content-type': 'application/json' };
  const file = outcome.body instanceof Blob ? outcome.body : null;
  const text = file ? '' : JSON.stringify(outcome.body);
  // What the clients read of a Response (jsdom has none of its own).
  return {
    ok: outcome.status >= 200 && outcome.status < 300,
    status: outcome.status,
    statusText: '',
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    json: async () => JSON.parse(text) as unknown,
    text: async () => text,
    blob: async () => file ?? new Blob([text], { type: 'application/json' }),
  } as unknown as Response;
};
const realFetch = globalThis.fetch;
beforeEach(() => {
  globalThis.fetch = fetchFake;
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

/** Throws, naming them, when calls came that no answer was set for (and forgets them). */
function verify(): void {
  const surprises = unexpected.splice(0);
  if (surprises.length) throw new Error(`The fake API was called unexpectedly:\n${surprises.join('\n')}`);
}

// Between tests: a call nobody expected fails the test that made it; then every answer and record is forgotten.
afterEach(() => {
  routes.length = 0;
  seen.length = 0;
  for (const effect of Object.values(effects)) effect.mockClear();
  if (withoutHost) installApiInterceptors(apiClient, effects);
  withoutHost = false;
  verify();
});

export const fakeApi = {
  /** Answers `method path` with `handler`: the envelope's data (or a function of the body and the call giving it). */
  on<M extends ApiMethodName, P extends ApiPathWith<M>>(method: M, path: P, handler: NoInfer<Handler<M, P>>): void {
    const route = routeOf(method, path);
    route.handler = handler;
    const index = routes.findIndex((other) => other.method === method && other.path === path);
    if (index >= 0) routes.splice(index, 1, route);
    else routes.push(route);
  },

  /** A failed answer: HTTP `status`, with the envelope's `message` (and `data`). */
  fail(status: number, message: string, data: unknown = null): Failure {
    return { kind: 'failure', status, message, data };
  },

  /** A download: the file itself, not the envelope, with its headers (e.g. content-disposition). */
  file(body: Blob, headers: Record<string, string> = {}): FileAnswer {
    return { kind: 'file', body, headers: { 'content-type': body.type, ...headers } };
  },

  /** No answer: the network failed. */
  unreachable(): Unreachable {
    return { kind: 'unreachable' };
  },

  /** The calls `method path` received, oldest first. */
  calls<M extends ApiMethodName, P extends ApiPathWith<M>>(method: M, path: P): Array<FakeCall<M, P>> {
    return seen
      .filter((entry) => entry.method === method && entry.path === path)
      .map((entry) => entry.call as unknown as FakeCall<M, P>);
  },

  /** Every call the fake answered, as `METHOD /path/template`, oldest first. */
  called(): string[] {
    return seen.map((entry) => `${entry.method.toUpperCase()} ${entry.path}`);
  },

  /** For this test, the API client as a remote's standalone shell has it: no host, so no interceptors. */
  withoutHost(): void {
    apiClient.interceptors.request.clear();
    apiClient.interceptors.response.clear();
    withoutHost = true;
  },

  verify,

  /** What the host's interceptors did besides answering: toasts, the session ending, the subscription page. */
  effects,
};
