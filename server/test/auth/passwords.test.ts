import argon2 from 'argon2';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  hashPassword,
  passwordProblem,
  verifyPassword,
} from '../../src/auth/passwords';

// The tests' argon2 hashes at its lowest cost (test/support/jest-setup.ts); the real module stays reachable here.
const realArgon2 = jest.requireActual<typeof argon2>('argon2');
// OWASP's Argon2id baseline, written out here so that a change to the server's parameters fails a test.
const owaspBaseline = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

describe('hashPassword', () => {
  it("asks for Argon2id at OWASP's baseline: 19 MiB, 2 passes, 1 lane", async () => {
    const hash = await hashPassword('a long passphrase');
    expect(jest.mocked(argon2.hash)).toHaveBeenLastCalledWith('a long passphrase', owaspBaseline);
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(hash).not.toContain('a long passphrase');
  });

  it('salts each hash: the same password twice gives two hashes', async () => {
    expect(await hashPassword('a long passphrase')).not.toBe(await hashPassword('a long passphrase'));
  });
});

describe('verifyPassword', () => {
  it('accepts the right password and refuses any other, for a hash made at the full cost', async () => {
    const hash = await realArgon2.hash('a long passphrase', owaspBaseline);
    expect(hash.split('$')[3]?.split(',').sort()).toEqual(['m=19456', 'p=1', 't=2']);
    await expect(verifyPassword(hash, 'a long passphrase')).resolves.toBe(true);
    await expect(verifyPassword(hash, 'a long passphrase ')).resolves.toBe(false);
    await expect(verifyPassword(hash, 'A long passphrase')).resolves.toBe(false);
  });

  it('refuses an unknown account after checking a dummy hash, so the time taken tells nothing', async () => {
    const verify = jest.spyOn(argon2, 'verify');
    try {
      await expect(verifyPassword(undefined, 'kabari-dummy-password')).resolves.toBe(false);
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses, without throwing, when the stored hash is not an argon2 hash', async () => {
    await expect(verifyPassword('not-a-hash', 'a long passphrase')).resolves.toBe(false);
  });
});

describe('passwordProblem', () => {
  it('names a length outside the limits, counting characters rather than UTF-16 units', () => {
    const tooShort = 'The password must be 8 to 128 characters long.';
    expect(passwordProblem('x'.repeat(PASSWORD_MIN_LENGTH - 1))?.en).toBe(tooShort);
    expect(passwordProblem('x'.repeat(PASSWORD_MAX_LENGTH + 1))?.id).toBe(
      'Kata sandi harus terdiri dari 8 sampai 128 karakter.',
    );
    // Seven characters and eight UTF-16 units (the emoji takes two): too short. One more character is enough.
    expect(passwordProblem('kabr\u{1F600}ab')?.en).toBe(tooShort);
    expect(passwordProblem('kabr\u{1F600}abc')).toBeNull();
  });

  it('refuses a common password whatever its case', () => {
    expect(passwordProblem('Password1')).not.toBeNull();
    expect(passwordProblem('a long passphrase')).toBeNull();
  });
});
