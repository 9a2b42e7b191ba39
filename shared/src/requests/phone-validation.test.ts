import { checkMobileNumber } from './phone-validation';

describe('checkMobileNumber', () => {
  it.each([
    ['ID', '', { ok: false, error: 'empty' }],
    ['ID', '   ', { ok: false, error: 'empty' }],
    ['ID', 'call me', { ok: false, error: 'invalid' }],
    ['ID', '0812', { ok: false, error: 'invalid' }],
    // A Jakarta landline is a valid number, but not a mobile one.
    ['ID', '021 5550 000', { ok: false, error: 'invalid' }],
    ['ID', '0812-3456-7890', { ok: true, e164: '+6281234567890' }],
    ['ID', '812 3456 7890', { ok: true, e164: '+6281234567890' }],
    // A number typed with its own code wins over the selected country.
    ['US', '+62 812 3456 7890', { ok: true, e164: '+6281234567890' }],
    ['GB', '07400 123456', { ok: true, e164: '+447400123456' }],
  ])('%s %j', async (country, input, expected) => {
    await expect(checkMobileNumber(country, input)).resolves.toEqual(expected);
  });
});
