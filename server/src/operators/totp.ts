import { Secret, TOTP } from 'otpauth';

// The second factor: RFC 6238 codes (6 digits, 30-second steps, SHA-1, what every authenticator app reads).

const PERIOD_SECONDS = 30;
const ISSUER = 'Kabari operators';

function totpOf(base32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

/** A new secret (160 bits, as RFC 4226 advises), in base32, and the otpauth:// URL an authenticator app scans. */
export function newTotpSecret(email: string): { secret: string; otpauthUrl: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, otpauthUrl: totpOf(secret, email).toString() };
}

/**
 * The 30-second step a code belongs to, when it is the code of that step or of the one before or after it (a
 * phone's clock a little off, a code typed as it changed); null otherwise. The caller refuses a step it has already
 * accepted, so a code seen over someone's shoulder is worth nothing once used.
 */
export function acceptedTotpStep(base32: string, code: string, at: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = at.getTime();
  const delta = totpOf(base32, 'operator').validate({ token: code, timestamp, window: 1 });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}
