import { z } from 'zod';

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

/** An error whose message is safe to show to the client (4xx only). */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
  }
}
