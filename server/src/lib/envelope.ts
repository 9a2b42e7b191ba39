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

/**
 * Why a signed-in user may not do this: `subscription-needed` (no running subscription; the app shows its expired
 * state), or null for any other refusal (a suspended account, a cross-site post, …), which the app only says.
 */
export const refusalEnvelope = envelope(
  z
    .object({ refusal: z.enum(['subscription-needed']) })
    .nullable()
    .meta({ id: 'Refusal' }),
).describe('A refusal (403): status and message as for any error; data says when it is the subscription.');

export type Refusal = NonNullable<z.infer<typeof refusalEnvelope>['data']>;

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { status: 200, message, data };
}

export function failure<T = null>(status: number, message: string, data: T = null as T): Envelope<T> {
  return { status, message, data };
}

// Documented error answers shared by every route.
export const errorResponses = {
  400: errorEnvelope,
  429: errorEnvelope,
  500: errorEnvelope,
} as const;

/**
 * An error whose message is safe to show to the client: a 4xx's always, a 5xx's only when given as a text in both
 * languages (from a `messagesOf` section), which the client reads in its own language; `message` is the English one.
 */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly texts: LocalizedText | undefined;
  /** What the error answer's data says beside the message (a refusal's reason); null by default. */
  readonly data: Refusal | null;

  constructor(
    statusCode: number,
    message: string | LocalizedText,
    headers: Record<string, string> = {},
    data: Refusal | null = null,
  ) {
    super(typeof message === 'string' ? message : message.en);
    this.name = 'HttpError';
    this.statusCode = statusCode;
    this.headers = headers;
    this.texts = typeof message === 'string' ? undefined : message;
    this.data = data;
  }

  messageIn(locale: Locale): string {
    return this.texts?.[locale] ?? this.message;
  }
}
