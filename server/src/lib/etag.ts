import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

export function strongEtag(content: string): string {
  return `"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

/** True when the client's cached copy (If-None-Match) is still current, so a 304 will do. */
export function isFresh(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
