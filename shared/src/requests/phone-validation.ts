export type PhoneError = 'empty' | 'invalid';
export type PhoneCheck = { ok: true; e164: string } | { ok: false; error: PhoneError };

/**
 * Messages: 'Please enter a number' / 'Please enter a valid mobile number'. libphonenumber-js's mobile
 * metadata accepts only numbers that can be mobile; it loads here, on the first check, not with the page.
 * A number typed with its own +code wins over the selected country.
 */
export async function checkMobileNumber(country: string, input: string): Promise<PhoneCheck> {
  const text = input.trim();
  if (!text) return { ok: false, error: 'empty' };
  if (!/^[+\d][\d\s().-]*$/.test(text)) return { ok: false, error: 'invalid' };
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/mobile');
  const phone = parsePhoneNumberFromString(text, country as Parameters<typeof parsePhoneNumberFromString>[1]);
  if (!phone?.isValid()) return { ok: false, error: 'invalid' };
  return { ok: true, e164: phone.number };
}

/** A number in E.164 as the search form shows it: its country, the national number, and the whole number. */
export async function describeNumber(
  e164: string,
): Promise<{ country: string; national: string; international: string } | null> {
  const { parsePhoneNumberFromString } = await import('libphonenumber-js/mobile');
  const phone = parsePhoneNumberFromString(e164);
  if (!phone?.country) return null;
  return { country: phone.country, national: phone.formatNational(), international: phone.formatInternational() };
}
