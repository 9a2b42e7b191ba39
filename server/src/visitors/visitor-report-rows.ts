import type { DatabaseExecutor } from '../db/open-database';
import { visitorReports } from '../db/schema/accounts';

export type NewVisitorReport = typeof visitorReports.$inferInsert;

export async function insertVisitorReport(db: DatabaseExecutor, values: NewVisitorReport): Promise<void> {
  await db.insert(visitorReports).values(values);
}
