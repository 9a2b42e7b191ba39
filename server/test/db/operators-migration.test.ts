import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database';
import { operatorAuditLog, operators } from '../../src/db/schema/operators';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../support/databases';

const quiet = { info: () => undefined, error: () => undefined };

describeEachDatabase('migration 0027: operators and their append-only audit log', (driver) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;

  beforeEach(async () => {
    database = await createTestDatabase(driver);
    opened = await openDatabase({ dataDir: database.dataDir, databaseUrl: database.databaseUrl }, quiet);
  });

  afterEach(async () => {
    await opened.client.close();
    await database.cleanup();
  });

  /** The database's own words refusing a statement (Drizzle wraps them), or '' when it ran. */
  async function refusal(statement: SQL): Promise<string> {
    try {
      await opened.db.execute(statement);
      return '';
    } catch (error) {
      return String((error as Error & { cause?: Error }).cause?.message ?? error);
    }
  }

  async function anOperator(): Promise<string> {
    const [row] = await opened.db
      .insert(operators)
      .values({ email: `ops-${randomUUID()}@example.com` })
      .returning({ id: operators.id });
    return row!.id;
  }

  it('keeps operator emails lower-cased and unique', async () => {
    await expect(opened.db.insert(operators).values({ email: 'Ops@Example.com' })).rejects.toThrow();
    await opened.db.insert(operators).values({ email: 'ops@example.com' });
    await expect(opened.db.insert(operators).values({ email: 'ops@example.com' })).rejects.toThrow();
  });

  it('refuses to change or delete an audit entry younger than three years, and deletes older ones', async () => {
    const operatorId = await anOperator();
    const [young] = await opened.db
      .insert(operatorAuditLog)
      .values({ operatorId, action: 'report.dismiss', objectType: 'abuse_report', objectId: 'r1', note: 'spam' })
      .returning({ id: operatorAuditLog.id });
    await opened.db.insert(operatorAuditLog).values({
      operatorId,
      action: 'session.sign_in',
      objectType: 'operator',
      createdAt: new Date(Date.now() - (3 * 365 + 2) * 24 * 60 * 60 * 1000),
    });

    await expect(refusal(sql`update operator_audit_log set note = 'changed'`)).resolves.toMatch(/append-only/);
    await expect(refusal(sql`delete from operator_audit_log where id = ${young!.id}`)).resolves.toMatch(/append-only/);
    await expect(refusal(sql`truncate operator_audit_log`)).resolves.toMatch(/append-only/);

    await opened.db.execute(sql`delete from operator_audit_log where created_at < now() - interval '3 years'`);
    const left = await opened.db.select().from(operatorAuditLog);
    expect(left.map((row) => row.action)).toEqual(['report.dismiss']);
    expect(left[0]?.note).toBe('spam');
  });
});
