import axios from 'axios';

/**
 * The one axios instance of the whole app. It lives in the shared package (a Module Federation
 * singleton), so the host installs its interceptors once and every remote uses the same client.
 */
export const apiClient = axios.create({
  baseURL: '',
  timeout: 20_000,
  headers: { accept: 'application/json' },
});

export function setApiBaseUrl(baseUrl: string): void {
  apiClient.defaults.baseURL = baseUrl;
}
