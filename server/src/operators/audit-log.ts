import type { Database } from '../db/open-database';
import { auditEntries, type AuditEntry } from './audit-log-rows';

// The audit log as the console reads it: pages of entries, newest first.

const AUDIT_PAGE = 50;

/** A page of the audit log, newest first, and the cursor of the next (older) page, or null. */
export async function auditLogPage(
  db: Database,
  before: number | undefined,
): Promise<{ entries: (Omit<AuditEntry, 'at'> & { at: string })[]; next: string | null }> {
  const rows = await auditEntries(db, before, AUDIT_PAGE + 1);
  const page = rows.slice(0, AUDIT_PAGE);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({ ...row, at: row.at.toISOString() })),
    next: rows.length > AUDIT_PAGE && last ? String(last.id) : null,
  };
}
