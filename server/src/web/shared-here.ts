import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keyedHash } from '../lib/keyed-hash';
import { serverCookieOptions } from '../plugins/auth';

// Share sent as a plain form (before, or without, the page's script) lands on the thank-you page, whose script would
// have named the approximate place from what it kept in the tab. This cookie lets the server name it instead, to the
// browser that shared and to no one else holding the link: it says only "this browser shared through this link" (a
// keyed hash of the token, which names nothing), for a few minutes.

const COOKIE = 'kabari-shared-here';
const MAX_AGE_SECONDS = 10 * 60;

const proofOf = (secret: Buffer, token: string) => keyedHash(secret, 'shared-here', token);

/** Marks the browser that has just shared through the link (the form's answer carries it). */
export function markSharedHere(reply: FastifyReply, secret: Buffer, token: string, publicUrl: string): void {
  reply.setCookie(COOKIE, proofOf(secret, token), { ...serverCookieOptions(publicUrl), maxAge: MAX_AGE_SECONDS });
}

/** Whether this request comes from the browser that shared through the link, within the last few minutes. */
export function sharedHere(request: FastifyRequest, secret: Buffer, token: string): boolean {
  const given = request.cookies[COOKIE];
  if (!given) return false;
  const expected = Buffer.from(proofOf(secret, token));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
