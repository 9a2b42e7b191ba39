import {
  LogController,
  type FastifyBaseLogger,
  type FastifyServerOptions,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import ipaddr from 'ipaddr.js';
import { dottedQuadOctets } from './trusted-proxies';

// Path segments that are keys in their own right: whoever reads them can act on the link or the sign-up.
const SECRET_SEGMENTS: [RegExp, string][] = [
  [/^(\/api\/v1\/share\/links\/)[^/]+/, '$1[token]'],
  [/^(\/api\/v1\/personnal\/registerQuery\/)[^/]+/, '$1[id]'],
];

/** Where a URL's path ends: its query string, then its fragment. */
const QUERY_MARKS = ['?', '#'];

/**
 * The URL as the request log shows it: the path only, never the query string or fragment (a consent link's token,
 * a reset code, a phone number being checked all travel there), and a share token or sign-up id in the path
 * replaced by its name.
 */
export function loggableUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let path = url;
  for (const mark of QUERY_MARKS) {
    const at = path.indexOf(mark);
    if (at !== -1) path = path.slice(0, at);
  }
  for (const [pattern, replacement] of SECRET_SEGMENTS) path = path.replace(pattern, replacement);
  return path;
}

/**
 * The client's network rather than its address: an IPv4 address cut to its /24, an IPv6 address to its /48. Enough
 * to tell networks apart when investigating a fault or an attack; not enough to single out one subscriber's line.
 */
export function clientNetwork(address: string | undefined): string | undefined {
  if (!address) return address;
  // The usual case, a plain IPv4 address, without parsing it (ipaddr.js tries every notation first).
  const dotted = dottedQuadOctets(address);
  if (dotted) return `${dotted[0]}.${dotted[1]}.${dotted[2]}.0`;
  if (!ipaddr.isValid(address)) return 'unknown';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${a}.${b}.${c}.0`;
  }
  const parts = (parsed as ipaddr.IPv6).parts;
  return new ipaddr.IPv6([parts[0]!, parts[1]!, parts[2]!, 0, 0, 0, 0, 0]).toString();
}

/** The health probes' paths: polled every few seconds by the platform, logged at debug. */
const PROBE_PATHS = new Set(['/healthz', '/readyz']);

/** Methods that change nothing: their successful answers are logged at debug. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Whether an answered request's line is written at debug rather than info: the health probes, and reads that
 * succeeded. An operator reading the log at info sees every change made (each non-read request), every refusal and
 * every failure; the reads that went well are most of the traffic (every page, every navigation's subscription
 * check), say nothing an operator acts on, and nginx's access log in front already lists them. Writing their line
 * was about a tenth of a small API answer's CPU time.
 */
function loggedAtDebug(request: FastifyRequest, reply: FastifyReply): boolean {
  return PROBE_PATHS.has(request.url) || (READ_METHODS.has(request.method) && reply.statusCode < 400);
}

/** Per app (tests build several): the logger the lines of answered requests are written through. */
const requestLines = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

/**
 * The app's logger without its redaction of secrets. A line of an answered request holds only what the serializers
 * make of the request and the reply (method, path without its secrets, host, client network, status) and the time
 * taken, none of which the redaction could touch; its wildcard paths cost more than the rest of the line (14 against
 * 6 µs).
 */
function requestLineLogger(request: FastifyRequest): FastifyBaseLogger {
  const root = request.server.log;
  let logger = requestLines.get(root);
  if (!logger) {
    logger = root.child({}, { redact: [] });
    requestLines.set(root, logger);
  }
  return logger;
}

/**
 * One line per request, once it is answered: the request as the logger's serializer shows it (see loggableUrl and
 * clientNetwork), the status and the time taken. Fastify's own writes two lines, the first before anything is
 * known, which was a fifth of the cost of a small API answer. The health probes and the reads that succeeded log at
 * debug (loggedAtDebug). A request that errored is logged through its own logger, with the error, redacted
 * as every other line. Fastify's other lines (errors, 404s) stay as they are.
 */
export class RequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) {
      reply.log.error({ req: request, res: reply, responseTime: reply.elapsedTime, err: error }, 'request errored');
      return;
    }
    const line = { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
    if (loggedAtDebug(request, reply)) requestLineLogger(request).debug(line, 'request completed');
    else requestLineLogger(request).info(line, 'request completed');
  }
}

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type LogMethod = (...args: unknown[]) => void;

/**
 * A request's own logger (its `request.log`, with its reqId), made the first time the request logs through it. Most
 * requests never do (their one line is written by RequestLog, through the app's logger), and making a pino child for
 * each took about 3 % of a small API answer's CPU time.
 */
class RequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  #write(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent', args: unknown[]): void {
    const logger = this.#logger;
    (logger[method] as LogMethod).apply(logger, args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(...args: unknown[]): void {
    this.#write('silent', args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger, made when first used (RequestLogger). */
export const requestLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  bindings,
  options,
) => new RequestLogger(logger, bindings, options);
