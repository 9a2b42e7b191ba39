import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * The address consent links point at: PUBLIC_URL when it is set. Without it, outside production, the address the
 * request came to (a development server on any port); in production the Host header is not trusted for links
 * that go into messages, so the configured default stays.
 */
export function linkBaseUrl(config: Config, request: FastifyRequest): string {
  if (config.requests.publicUrlSet || config.isProduction) return config.publicUrl;
  return `${request.protocol}://${request.host}`;
}
