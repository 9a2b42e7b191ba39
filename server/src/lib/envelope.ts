import { z } from 'zod';
import type { Locale, LocalizedText } from './messages';

// Every JSON response has this shape; `status` mirrors the HTTP status.
export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

export function envelope<T extends z.ZodType>(dataSchema: T) {
  return z.object({
    status: z.number().int(),
    message: z.string(),
    data: dataSchema,
  });
}

export const errorEnvelope = envelope(z.null()).describe(
  'An error: status mirrors the HTTP status, message says what went wrong.',
);

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { status: 200, message, data };
}

export function failure(status: number, message: string): Envelope<null> {
  return { status, message, data: null };
}

// Documented error answers shared by every route.
export const errorResponses = {
  400: errorEnvelope,
  429: errorEnvelope,
  500: errorEnvelope,
} as const;

/**
 * An error whose message is safe to show to the client (4xx only). Given a text in both languages (from a
 * `messagesOf` section), the client reads it in its own language; `message` is the English one.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly texts: LocalizedText | undefined;

  constructor(statusCode: number, message: string | LocalizedText, headers: Record<string, string> = {}) {
    super(typeof message === 'string' ? message : message.en);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
    this.texts = typeof message === 'string' ? undefined : message;
  }

  messageIn(locale: Locale): string {
    return this.texts?.[locale] ?? this.message;
  }
}
