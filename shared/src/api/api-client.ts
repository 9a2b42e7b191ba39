import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { apiUrl } from './api-fetch';
import { apiClientCreated } from './api-setup';
import type {
  ApiBody,
  ApiData,
  ApiMethod,
  ApiMethodName,
  ApiPath,
  ApiPathParams,
  ApiPathWith,
  ApiQuery,
} from './api-types';
import type { Envelope } from './envelope';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Resolve with the whole response (HTTP status, headers, the envelope) instead of the envelope's data. */
    raw?: boolean;
    /** Statuses the caller handles itself: the interceptors neither toast nor redirect for them. */
    handledStatuses?: readonly number[];
    /** false: the caller shows its own message on failure (the 401 and 403 rules still apply). */
    toastErrors?: boolean;
    /** Set on the one retry of a GET-like request, so it is not retried again. */
    retried?: boolean;
  }
}

/**
 * The one axios instance of the whole app. It lives in the shared package (a Module Federation
 * singleton), so the host installs its interceptors once (see api-setup.ts) and every remote uses
 * the same client. Import this module lazily: pages a visitor lands on do not need axios.
 */
export const apiClient = axios.create({
  baseURL: '',
  timeout: 20_000,
  headers: { accept: 'application/json' },
});
apiClientCreated(apiClient);

/** What a call may say besides its path and body: axios's options, with the path's values and the query typed. */
type AxiosOptions = Omit<AxiosRequestConfig, 'raw' | 'url' | 'method' | 'data' | 'params'>;

/** The options of a call to `path`: its `{name}` values (required when it has some) and its query string. */
export type ApiCallOptions<P extends ApiPath, M extends ApiMethod<P>> = AxiosOptions &
  ([ApiPathParams<P, M>] extends [never] ? { path?: never } : { path: ApiPathParams<P, M> }) &
  ([ApiQuery<P, M>] extends [never] ? { params?: never } : { params?: ApiQuery<P, M> });

// A path drawn from ApiPathWith<M> answers M, which TypeScript cannot see through the generic: `M & ApiMethod<P>`
// says so (it is M itself for every real path).
type DataOf<P extends ApiPath, M extends ApiMethodName> = ApiData<P, M & ApiMethod<P>>;

/** The options argument: optional, unless the path has values to fill in. */
type OptionsArgument<P extends ApiPath, M extends ApiMethodName> = [ApiPathParams<P, M & ApiMethod<P>>] extends [never]
  ? [options?: ApiCallOptions<P, M & ApiMethod<P>>]
  : [options: ApiCallOptions<P, M & ApiMethod<P>>];

/** A route without a JSON body is called with none. */
type BodyOf<P extends ApiPath, M extends ApiMethodName> = [ApiBody<P, M & ApiMethod<P>>] extends [never]
  ? undefined
  : ApiBody<P, M & ApiMethod<P>>;

function axiosConfig(
  path: ApiPath,
  options: { path?: Record<string, string | number> } | undefined,
): [string, AxiosRequestConfig | undefined] {
  if (!options) return [apiUrl(path, undefined), undefined];
  const { path: values, ...config } = options;
  return [apiUrl(path, values), config];
}

// The host's interceptors resolve a call with the envelope's data, which axios's own types cannot express: these
// helpers say so once, for every caller, with the shapes the server's OpenAPI document gives each path.

/** A call without a body (GET, DELETE): resolves with the envelope's data; rejects with an ApiError. */
function callWithoutBody<M extends 'get' | 'delete'>(method: M) {
  return <P extends ApiPathWith<M>>(path: P, ...[options]: OptionsArgument<P, M>): Promise<DataOf<P, M>> => {
    const [url, config] = axiosConfig(path, options);
    return apiClient.request({ ...config, method, url }) as unknown as Promise<DataOf<P, M>>;
  };
}

/** GET: resolves with the envelope's data; rejects with an ApiError. */
export const apiGet = callWithoutBody('get');

/** DELETE: resolves with the envelope's data; rejects with an ApiError. */
export const apiDelete = callWithoutBody('delete');

/** POST: resolves with the envelope's data; rejects with an ApiError. */
export function apiPost<P extends ApiPathWith<'post'>>(
  path: P,
  body: BodyOf<P, 'post'>,
  ...[options]: OptionsArgument<P, 'post'>
): Promise<DataOf<P, 'post'>> {
  const [url, config] = axiosConfig(path, options);
  return apiClient.post(url, body, config) as unknown as Promise<DataOf<P, 'post'>>;
}

/** A GET answered with the raw response (the envelope in `data`), e.g. to poll a status or read a download. */
export function apiRawGet<P extends ApiPathWith<'get'>>(
  path: P,
  ...[options]: OptionsArgument<P, 'get'>
): Promise<AxiosResponse<Envelope<DataOf<P, 'get'>>>> {
  const [url, config] = axiosConfig(path, options);
  return apiClient.get<Envelope<DataOf<P, 'get'>>>(url, { ...config, raw: true });
}
