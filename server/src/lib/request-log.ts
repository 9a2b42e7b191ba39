import type { FastifyRequest } from 'fastify';

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The URL as the request log shows it: the value of any `token` query parameter is replaced, however its name is
 * spelled (`%74oken` is parsed as `token` too). It is a secret wherever it appears: the /dev tools' token, the
 * token of a consent link.
 */
export function loggableUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const hashStart = url.indexOf('#', queryStart);
  const end = hashStart < 0 ? url.length : hashStart;
  const pairs = url
    .slice(queryStart + 1, end)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return decodedName(name).toLowerCase() === 'token' ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}${url.slice(end)}`;
}

/** fastify's own request serializer, with the URL made loggable. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    version: request.headers?.['accept-version'] as string | undefined,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
