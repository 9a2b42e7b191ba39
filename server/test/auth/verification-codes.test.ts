import { eq } from 'drizzle-orm';
import { checkResetCode, CODE_MAX_ATTEMPTS, issueResetCode } from '../../src/auth/verification-codes';
import { verificationCodes } from '../../src/db/schema/accounts';
import { describeEachDatabase, openedTestDatabase } from '../support/databases';

describeEachDatabase('reset codes', (driver) => {
  const database = openedTestDatabase(driver);
  const secret = Buffer.from('s'.repeat(32));

  it(`compare at most ${CODE_MAX_ATTEMPTS} guesses, even sent all at once, then the code is dead`, async () => {
    const email = 'burst@example.com';
    const { code, codeId } = await issueResetCode(database.current.db, secret, email);
    const wrong = Array.from({ length: 12 }, (_, index) =>
      String((Number(code) + 1 + index) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(wrong.map((guess) => checkResetCode(database.current.db, secret, email, guess)));
    expect(results.every((result) => !result.ok)).toBe(true);
    const [row] = await database.current.db.select().from(verificationCodes).where(eq(verificationCodes.id, codeId));
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);
    expect((await checkResetCode(database.current.db, secret, email, code)).ok).toBe(false);
  });

  it('a right code costs no attempt', async () => {
    const email = 'right@example.com';
    const { code, codeId } = await issueResetCode(database.current.db, secret, email);
    for (let attempt = 0; attempt < 8; attempt += 1) {
      expect((await checkResetCode(database.current.db, secret, email, code)).ok).toBe(true);
    }
    const [row] = await database.current.db.select().from(verificationCodes).where(eq(verificationCodes.id, codeId));
    expect(row?.attempts).toBe(0);
  });
});
