// The typed core of every call to the API, without axios: a path of the server's OpenAPI document and its values
// make the URL, and the answer's envelope gives the path's typed data or an ApiError. The axios client
// (api-client.ts) builds its URLs here; the recipient's pages (remote-share) call through `fetchApi`, which is plain
// fetch: they open from an SMS on a phone and must stay light.
import { ApiError } from './api-error';
import type { ApiBody, ApiData, ApiMethod, ApiMethodName, ApiPath, ApiPathParams, ApiPathWith } from './api-types';
import { isEnvelope } from './envelope';

/** The URL of `path` with its `{name}` placeholders filled in, each value encoded. */
export function apiUrl(path: ApiPath, values: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values?.[name];
    if (value === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * The envelope's data of a fetch answer. Rejects with an ApiError (HTTP status, the envelope's message) when the
 * answer is a failure or not an envelope at all.
 */
async function envelopeData<T>(response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  const envelope = isEnvelope(body) ? body : null;
  if (!response.ok || !envelope) {
    throw new ApiError(envelope?.message ?? response.statusText, response.status, envelope?.data);
  }
  return envelope.data as T;
}

// A path drawn from ApiPathWith<M> answers M, which TypeScript cannot see through the generic: `M & ApiMethod<P>`
// says so (it is M itself for every real path).
type Operation<M extends ApiMethodName, P extends ApiPath> = M & ApiMethod<P>;
/** What a plain-fetch call says besides its method and path: the path's values, its body, extra headers. */
type FetchApiOptions<M extends ApiMethodName, P extends ApiPathWith<M>> = {
  headers?: Record<string, string>;
} & ([ApiPathParams<P, Operation<M, P>>] extends [never]
  ? { path?: never }
  : { path: ApiPathParams<P, Operation<M, P>> }) &
  ([ApiBody<P, Operation<M, P>>] extends [never] ? { body?: never } : { body: ApiBody<P, Operation<M, P>> });

/**
 * One call, typed by its path: resolves with the envelope's data, rejects with an ApiError. A Blob body (an upload)
 * goes as it is, in its own type; any other as JSON. A write without a body still goes as JSON (`{}`), as every write
 * to the API does.
 */
export async function fetchApi<M extends ApiMethodName, P extends ApiPathWith<M>>(
  method: M,
  path: P,
  options: FetchApiOptions<M, P>,
): Promise<ApiData<P, Operation<M, P>>> {
  const given = options as { path?: Record<string, string | number>; body?: unknown; headers?: Record<string, string> };
  const url = apiUrl(path, given.path);
  const headers: Record<string, string> = { ...given.headers };
  let body: BodyInit | undefined;
  if (method !== 'get' && method !== 'delete') {
    const upload = given.body instanceof Blob ? given.body : null;
    headers['Content-Type'] = upload ? upload.type || 'application/octet-stream' : 'application/json';
    body = upload ?? JSON.stringify(given.body ?? {});
  }
  const response = await fetch(url, { method: method.toUpperCase(), headers, body });
  return envelopeData(response);
}
