import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../lib/envelope';
import { messagesOf } from '../lib/messages';

/**
 * Text the database cannot store is refused at the door, for every route at once: a NUL character (PostgreSQL
 * refuses the 0x00 byte in text and the \u0000 escape in JSON), a lone UTF-16 surrogate (it would be stored as
 * U+FFFD, silently changing what was sent) and percent-encoding that is not UTF-8. Anywhere in the address (path and
 * query), a header value, or a JSON body (keys as well as values, at any depth). What slips past (a string made
 * inside the server) is caught when the database refuses it: the error handler answers the same 400.
 */

export const sayInvalidText = messagesOf('invalidText');

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A NUL or any surrogate: one scan that almost every string (no emoji, no NUL) fails at once. */
// eslint-disable-next-line no-control-regex -- the NUL character is what it looks for
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

function isBrokenText(text: string): boolean {
  return SUSPECT.test(text) && (text.includes('\u0000') || LONE_SURROGATE.test(text));
}

/**
 * Every string in a parsed value, keys included; iterative, so a deeply nested body cannot exhaust the stack. It runs
 * on every request's headers: strings are checked where they are met, and only objects and arrays wait their turn
 * (no pair allocated per property, no array spread into a call, which a long array would overflow).
 */
function holdsBrokenText(root: unknown): boolean {
  if (typeof root === 'string') return isBrokenText(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      for (const inner of value) {
        if (typeof inner === 'string') {
          if (isBrokenText(inner)) return true;
        } else if (inner !== null && typeof inner === 'object') pending.push(inner);
      }
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (isBrokenText(key)) return true;
        const inner = record[key];
        if (typeof inner === 'string') {
          if (isBrokenText(inner)) return true;
        } else if (inner !== null && typeof inner === 'object') pending.push(inner);
      }
    }
  }
  return false;
}

/** The raw address: each run of %XX escapes must decode to UTF-8 without a NUL. A lone '%' is left as it is. */
function addressHoldsBrokenText(url: string): boolean {
  if (isBrokenText(url)) return true;
  if (!url.includes('%')) return false;
  for (const [run] of url.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    try {
      if (isBrokenText(decodeURIComponent(run))) return true;
    } catch {
      return true;
    }
  }
  return false;
}

export function requestHoldsBrokenText(request: FastifyRequest): boolean {
  return (
    addressHoldsBrokenText(request.url) ||
    holdsBrokenText(request.query) ||
    holdsBrokenText(request.params) ||
    holdsBrokenText(request.headers) ||
    holdsBrokenText(request.body)
  );
}

/** PostgreSQL's refusals of such text (22021 character_not_in_repertoire, 22P05 untranslatable_character). */
const INVALID_TEXT_CODES = new Set(['22021', '22P05']);

/** The database refused a string's characters; the driver's error may be wrapped (Drizzle keeps it as the cause). */
export function isInvalidTextError(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && INVALID_TEXT_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function invalidTextError(): HttpError {
  return new HttpError(400, sayInvalidText('invalidCharacters'));
}

export default fp(
  async (app) => {
    // Before validation, so no schema (nor its error message) ever sees such a string. A callback hook: it runs on
    // every request, and a promise for each cost about as much as the check.
    app.addHook('preValidation', (request, _reply, done) => {
      done(requestHoldsBrokenText(request) ? invalidTextError() : undefined);
    });
  },
  { name: 'invalid-text' },
);
