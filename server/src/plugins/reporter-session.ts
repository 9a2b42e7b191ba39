import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keyedHash } from '../lib/keyed-hash';
import { serverCookieOptions } from './auth';

// A recipient has no account: the browser that reports is known by a random cookie given with its first report, so
// that reporting the same link again from it stores nothing new. The cookie names nobody and holds nothing about the
// link; the report keeps only a keyed hash of it. It lasts as long as the browser's session.

const COOKIE = 'kabari-reporter';
const VALUE = /^[A-Za-z0-9_-]{32}$/;

/** The reporting browser's key for abuse_reports.reporter_key; gives the browser its cookie when it has none. */
export function reporterKey(request: FastifyRequest, reply: FastifyReply, secret: Buffer, publicUrl: string): string {
  let value = request.cookies[COOKIE];
  if (!value || !VALUE.test(value)) {
    value = randomBytes(24).toString('base64url');
    reply.setCookie(COOKIE, value, serverCookieOptions(publicUrl));
  }
  return keyedHash(secret, 'reporter', value);
}
