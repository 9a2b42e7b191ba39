/**
 * Whether a write failed on a unique index (PostgreSQL's 23505), on PostgreSQL or PGlite, whether the driver's error
 * comes as it is or wrapped by Drizzle (its `cause`): a row another request wrote first.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    if (String((current as { code?: unknown }).code) === '23505') return true;
  }
  return false;
}
