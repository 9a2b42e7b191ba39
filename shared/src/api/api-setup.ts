import type { AxiosInstance } from 'axios';

type Installer = (client: AxiosInstance) => void;

const installers: Installer[] = [];
let created: AxiosInstance | null = null;

/**
 * The host hands over its interceptors here at start-up, before any page runs. Whoever loads the API
 * client first (the host, or a remote's page), the one instance gets them as it is created, so a remote
 * never sends a request without the token and application-id headers. This module does not import
 * axios: it costs nothing on pages that make no call.
 */
export function setUpApiClient(installer: Installer): void {
  installers.push(installer);
  if (created) installer(created);
}

/** Called once by api-client.ts when the instance exists. */
export function apiClientCreated(client: AxiosInstance): void {
  created = client;
  for (const install of installers) install(client);
}
