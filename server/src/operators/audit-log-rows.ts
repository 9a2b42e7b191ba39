import { desc, eq, lt } from 'drizzle-orm';
import type { DatabaseExecutor } from '../db/open-database';
import { operatorAuditLog, operators } from '../db/schema/operators';

// The operators' audit log: who did what to which object, when, and the note they gave. Rows are only ever added
// (the table's trigger refuses changes, and deletes before the retention period).

export interface OperatorAction {
  operatorId: string;
  /** What was done, `<object>.<verb>`: `session.sign_in`, `report.suspend`, `refund.mark_refunded`… */
  action: string;
  /** What kind of object it was done to: `operator`, `abuse_report`, `suspension`… */
  objectType: string;
  objectId?: string | null | undefined;
  note?: string | null | undefined;
}

/** Adds an entry; call it in the transaction of the action itself, so that an action is never left unrecorded. */
export async function recordOperatorAction(db: DatabaseExecutor, entry: OperatorAction): Promise<void> {
  await db.insert(operatorAuditLog).values({
    operatorId: entry.operatorId,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId ?? null,
    note: entry.note ?? null,
  });
}

export interface AuditEntry {
  id: number;
  at: Date;
  operatorEmail: string;
  action: string;
  objectType: string;
  objectId: string | null;
  note: string | null;
}

/** A page of entries, newest first, older than the `before` entry id when given. */
export async function auditEntries(
  db: DatabaseExecutor,
  before: number | undefined,
  limit: number,
): Promise<AuditEntry[]> {
  return db
    .select({
      id: operatorAuditLog.id,
      at: operatorAuditLog.createdAt,
      operatorEmail: operators.email,
      action: operatorAuditLog.action,
      objectType: operatorAuditLog.objectType,
      objectId: operatorAuditLog.objectId,
      note: operatorAuditLog.note,
    })
    .from(operatorAuditLog)
    .innerJoin(operators, eq(operators.id, operatorAuditLog.operatorId))
    .where(before === undefined ? undefined : lt(operatorAuditLog.id, before))
    .orderBy(desc(operatorAuditLog.id))
    .limit(limit);
}
