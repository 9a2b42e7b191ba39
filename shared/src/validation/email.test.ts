import { isValidEmail } from './email';

describe('email format', () => {
  it.each(['ana@example.com', 'a.b+c@sub.example.co.id', 'x@y.z'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each(['', 'ana', 'ana@', 'ana@example', '@example.com', 'ana @example.com', 'ana@exa mple.com', 'ana@@x.com'])(
    'rejects %j',
    (email) => {
      expect(isValidEmail(email)).toBe(false);
    },
  );
});
