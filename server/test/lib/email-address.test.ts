import { emailField } from '../../src/routes/auth/schemas';
import { normalEmail } from '../../src/lib/email-address';

// The limit check reads an address outside a form: it must keep and refuse the same addresses the forms do.
describe('normalEmail', () => {
  it('keeps an address trimmed and in lower case', () => {
    expect(normalEmail('  Ibu.Sari@Example.COM ')).toEqual({ ok: true, email: 'ibu.sari@example.com' });
  });

  it.each([
    ['', 'enterEmail'],
    ['   ', 'enterEmail'],
    ['sari@example', 'enterValidEmail'],
    ['sari example@mail.com', 'enterValidEmail'],
    [`${'a'.repeat(250)}@b.co`, 'enterValidEmail'],
  ])('refuses %j as the forms do (%s)', (input, problem) => {
    expect(normalEmail(input)).toEqual({ ok: false, problem });
    const form = emailField.safeParse(input);
    expect(form.success).toBe(false);
    expect(form.error?.issues[0]?.message).toBe(`common.${problem}`);
  });
});
