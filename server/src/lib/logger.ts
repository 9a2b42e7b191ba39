import type { FastifyBaseLogger } from 'fastify';

/** What the rules write to the log: the server's logger (or a test's) is passed in, so they need not know Fastify. */
export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
