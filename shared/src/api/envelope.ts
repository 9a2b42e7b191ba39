/** Every API response: `{status, message, data}`; status mirrors the HTTP status. */
export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}

export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && 'status' in value && 'data' in value;
}
