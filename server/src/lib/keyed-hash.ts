import { createHmac } from 'node:crypto';

/**
 * A keyed hash of personal data used only as a lookup key (a throttle or send-limit counter, an opt-out, an
 * address): equal inputs give equal keys, and without the server's secret nobody holding a copy of the database can
 * test a guessed phone number, email or IP address against it. `purpose` separates the key spaces, so one key
 * never stands for another kind of value.
 */
export function keyedHash(secret: Buffer, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('base64url').slice(0, 32);
}
