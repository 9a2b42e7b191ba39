import { eq } from 'drizzle-orm';
import { checkResetCode, CODE_MAX_ATTEMPTS, issueResetCode } from '../../src/auth/verification-codes';
import { openDatabase, type OpenedDatabase } from '../../src/db/open-database';
import { verificationCodes } from '../../src/db/schema/accounts';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../support/databases';

describeEachDatabase('reset codes', (driver) => {
  let database: TestDatabase;
  let opened: OpenedDatabase;
  const secret = Buffer.from('s'.repeat(32));

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    opened = await openDatabase(
      { dataDir: database.dataDir, databaseUrl: database.databaseUrl },
      { info: () => undefined, error: () => undefined },
    );
  });

  afterAll(async () => {
    await opened?.client.close();
    await database?.cleanup();
  });

  it(`compare at most ${CODE_MAX_ATTEMPTS} guesses, even sent all at once, then the code is dead`, async () => {
    const email = 'burst@example.com';
    const { code, codeId } = await issueResetCode(opened.db, secret, email);
    const wrong = Array.from({ length: 12 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(wrong.map((guess) => checkResetCode(opened.db, secret, email, guess)));
    expect(results.every((result) => !result.ok)).toBe(true);
    const [row] = await opened.db.select().from(verificationCodes).where(eq(verificationCodes.id, codeId));
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);
    expect((await checkResetCode(opened.db, secret, email, code)).ok).toBe(false);
  });

  it('a right code costs no attempt', async () => {
    const email = 'right@example.com';
    const { code, codeId } = await issueResetCode(opened.db, secret, email);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await checkResetCode(opened.db, secret, email, code)).ok).toBe(true);
    }
    const [row] = await opened.db.select().from(verificationCodes).where(eq(verificationCodes.id, codeId));
    expect(row?.attempts).toBe(0);
  });
});
