/**
 * One try at signing up, named by a random id that the server keeps with the sign-up it makes. A submission that got
 * no answer (a lost connection, a timeout) is sent again under the same id, and the server answers with the sign-up
 * the first one made instead of charging a second time. Once the server has answered anything, the next submission
 * is a new try with a new id: a declined card, a taken email or a finished sign-up is never answered again in place
 * of a new one.
 */
export interface SignUpAttempt {
  send<T>(call: (attemptId: string) => Promise<T>): Promise<T>;
}

export function newSignUpAttempt(): SignUpAttempt {
  let attemptId = randomUuid();
  return {
    async send(call) {
      try {
        const answer = await call(attemptId);
        attemptId = randomUuid();
        return answer;
      } catch (error) {
        // Kept only when no answer came (the API client's error then has no status).
        if (typeof (error as { status?: unknown }).status === 'number') attemptId = randomUuid();
        throw error;
      }
    },
  };
}

/** A version 4 UUID: crypto.randomUUID where the page is a secure context, else from crypto.getRandomValues. */
function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
