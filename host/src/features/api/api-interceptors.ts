import type { AxiosInstance, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { ApiError } from '@kabari/shared/api/api-error';
import type { ApiSchema } from '@kabari/shared/api/api-types';
import { isEnvelope } from '@kabari/shared/api/envelope';
import { apiTarget, type ApiHeaderSource } from '../../lib/api-headers';
import { retryDelayMs, shouldRetry } from './retry-policy';

/** What the interceptors need from the app; the host passes the real ones, tests pass fakes. */
export interface ApiEffects extends ApiHeaderSource {
  /** 401: the session is over. */
  sessionExpired(): void;
  /** 403 for want of a running subscription (the server says so in the answer's data). */
  forbidden(): void;
  /** Any other failure, with the server's message when it gave one. */
  toastError(message: string | undefined): void;
  /** No answer at all (offline, timeout). */
  toastNetworkError(): void;
  /** What a call without an answer rejects with, in the page's language (the browser's own words are English). */
  networkErrorMessage(): string;
  wait(ms: number): Promise<void>;
}

interface ErrorLike {
  config?: InternalAxiosRequestConfig;
  response?: AxiosResponse;
  code?: string;
  message?: string;
}

function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  for (const field of ['message', 'error'] as const) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return undefined;
}

/**
 * Whether a 403 is the subscription's refusal: the app then shows its expired state. Any other 403 (a suspended
 * account, a post from another site) is only said, like other failures.
 */
function isSubscriptionRefusal(body: unknown): boolean {
  if (!isEnvelope(body)) return false;
  const data = body.data as Partial<ApiSchema<'Refusal'>> | null;
  return data?.refusal === 'subscription-needed';
}

/** The status a response stands for: the envelope's when there is one, else HTTP's. */
function statusOf(response: AxiosResponse): number {
  return isEnvelope(response.data) && typeof response.data.status === 'number' ? response.data.status : response.status;
}

/**
 * The interceptors of the one axios instance: headers on the way out; on the way back,
 * the envelope's data for 200–299 (or the raw response when asked), one retry for reads that met a
 * passing failure, and the 401, subscription-403 and error-toast rules. A failed call rejects with an ApiError.
 */
export function installApiInterceptors(client: AxiosInstance, effects: ApiEffects): void {
  client.interceptors.request.use(async (config) => {
    const { baseUrl, headers } = await apiTarget(effects);
    if (!config.baseURL) config.baseURL = baseUrl;
    // A header the caller set itself (e.g. the token of a session being ended) is kept.
    for (const [name, value] of Object.entries(headers)) config.headers.set(name, value, name === 'application-id');
    return config;
  });

  async function fail(
    config: InternalAxiosRequestConfig | undefined,
    status: number,
    response: AxiosResponse,
  ): Promise<unknown> {
    if (config && shouldRetry(config.method, status, config.retried === true)) {
      await effects.wait(retryDelayMs(response.headers?.['retry-after']));
      config.retried = true;
      return client.request(config);
    }
    const message = serverMessage(response.data);
    if (!config?.handledStatuses?.includes(status)) {
      if (status === 401) effects.sessionExpired();
      else if (status === 403 && isSubscriptionRefusal(response.data)) effects.forbidden();
      else if (config?.toastErrors !== false) effects.toastError(message);
    }
    throw new ApiError(message ?? `Request failed with status ${status}`, status, response.data);
  }

  // axios types a response interceptor as returning the response; these resolve with the envelope's
  // data instead (hence `as never`), which apiGet/apiPost in @kabari/shared/api/api-client type for callers.
  client.interceptors.response.use(
    (response) => {
      const status = statusOf(response);
      if (status >= 400) return fail(response.config, status, response) as never;
      if (response.config.raw) return response;
      const body: unknown = response.data;
      return (status >= 200 && status < 300 && isEnvelope(body) ? body.data : body) as never;
    },
    (error: ErrorLike) => {
      // A call the caller cancelled is nobody's error.
      if (error?.code === 'ERR_CANCELED') throw error;
      if (error?.response) return fail(error.config, statusOf(error.response), error.response);
      // No answer: offline, a timeout, or the runtime configuration could not be read.
      if (error?.config?.toastErrors !== false) effects.toastNetworkError();
      throw new ApiError(effects.networkErrorMessage(), undefined, undefined);
    },
  );
}
