/**
 * What every API call carries; the interceptors and the visitor report's beacon use it. No Authorization
 * header: the session is the HttpOnly cookie the browser sends to the API, which is on the page's own origin.
 */
export interface ApiHeaderSource {
  runtimeConfig(): Promise<{ apiBaseUrl: string; appId: string }>;
  /** The interface language, so the server can answer (and write emails) in it. */
  locale(): string;
}

export interface ApiTarget {
  baseUrl: string;
  headers: Record<string, string>;
}

export async function apiTarget(source: ApiHeaderSource): Promise<ApiTarget> {
  const { apiBaseUrl, appId } = await source.runtimeConfig();
  const headers: Record<string, string> = { 'application-id': appId, 'accept-language': source.locale() };
  return { baseUrl: apiBaseUrl, headers };
}
