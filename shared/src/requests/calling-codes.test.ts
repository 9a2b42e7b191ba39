import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { callingCodes } from './calling-codes';
import { countryOptions } from './country-options';

describe('calling codes', () => {
  it('are exactly the regions and codes of the pinned libphonenumber-js', () => {
    const expected = Object.fromEntries(getCountries().map((code) => [code, getCountryCallingCode(code)]));
    expect(callingCodes).toEqual(expected);
  });

  it('are listed with their names in the page language, alphabetically', () => {
    const en = countryOptions('en');
    expect(en.find((option) => option.code === 'ID')).toEqual({ code: 'ID', name: 'Indonesia', callingCode: '62' });
    expect(en.find((option) => option.code === 'DE')?.name).toBe('Germany');
    expect(countryOptions('id').find((option) => option.code === 'DE')?.name).toBe('Jerman');
    const names = en.map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => new Intl.Collator('en').compare(a, b)));
  });
});
