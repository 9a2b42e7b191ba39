import { eq } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { optOuts } from '../db/schema';
// The recipient's opt-out route writes the hash; the same function reads it here.
import { optOutHash } from '../routes/share/opt-out-hash';

/** Whether the number (E.164) or email address opted out of every request. */
export async function isOptedOut(db: DatabaseExecutor, target: string): Promise<boolean> {
  const [row] = await db
    .select({ targetHash: optOuts.targetHash })
    .from(optOuts)
    .where(eq(optOuts.targetHash, optOutHash(target)));
  return row !== undefined;
}
