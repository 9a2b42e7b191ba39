import type { DatabaseExecutor } from '../../db/open-database';
import { visitorReports } from '../../db/schema/accounts';

export async function insertVisitorReport(
  db: DatabaseExecutor,
  values: typeof visitorReports.$inferInsert,
): Promise<void> {
  await db.insert(visitorReports).values(values);
}
