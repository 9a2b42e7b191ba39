import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  // Never stored, never transformed (a compressing proxy would buffer the stream).
  'cache-control': 'no-cache, no-store, no-transform',
  // nginx and similar proxies otherwise buffer the response.
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

/**
 * Takes the reply out of Fastify's hands for a Server-Sent Events stream: written directly, with no compression,
 * no serializer and no envelope, but with the headers the hooks set (security headers, cookies).
 */
export function openEventStream(request: FastifyRequest, reply: FastifyReply): ServerResponse {
  reply.hijack();
  const response = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) response.setHeader(name, value);
  }
  response.writeHead(200, STREAM_HEADERS);
  request.raw.socket.setNoDelay(true);
  request.raw.socket.setTimeout(0);
  return response;
}
