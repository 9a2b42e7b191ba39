import axios, { type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { apiClientCreated } from './api-setup';
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

export type ApiOptions = Omit<AxiosRequestConfig, 'raw' | 'url' | 'method' | 'data'>;

// The host's interceptors resolve a call with the envelope's data, which axios's own
// types cannot express: these helpers say so once, for every caller.

/** GET: resolves with the envelope's data; rejects with an ApiError. */
export function apiGet<T>(url: string, options?: ApiOptions): Promise<T> {
  return apiClient.get(url, options) as unknown as Promise<T>;
}

/** POST: resolves with the envelope's data; rejects with an ApiError. */
export function apiPost<T>(url: string, body?: unknown, options?: ApiOptions): Promise<T> {
  return apiClient.post(url, body, options) as unknown as Promise<T>;
}

/** Any call, answered with the raw response (the envelope in `data`), e.g. to poll a status. */
export function apiRaw<T>(config: Omit<AxiosRequestConfig, 'raw'>): Promise<AxiosResponse<Envelope<T>>> {
  return apiClient.request<Envelope<T>>({ ...config, raw: true });
}
