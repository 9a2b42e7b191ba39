import { placeAddress, positionAddress } from './place-address';

describe('placeAddress', () => {
  it('writes the place and its distance in the reader’s language, the country named by Intl', () => {
    const bogor = { name: 'Bogor', countryCode: 'ID', distanceKm: 12 };
    expect(placeAddress(bogor, 'en')).toBe('12 km from Bogor, Indonesia');
    expect(placeAddress(bogor, 'id')).toBe('12 km dari Bogor, Indonesia');
    const berlin = { name: 'Berlin', countryCode: 'DE', distanceKm: null };
    expect(placeAddress(berlin, 'en')).toBe('Berlin, Germany');
    expect(placeAddress(berlin, 'id')).toBe('Berlin, Jerman');
  });

  it('leaves out what it does not know, and the region when it repeats the name', () => {
    expect(placeAddress({ name: 'Mountain View', region: 'California', countryCode: 'US' }, 'id')).toBe(
      'Mountain View, California, Amerika Serikat',
    );
    expect(placeAddress({ name: 'Jakarta', region: 'Jakarta', countryCode: 'ID' }, 'en')).toBe('Jakarta, Indonesia');
    expect(placeAddress({ name: null, countryCode: 'SG', distanceKm: 3 }, 'en')).toBe('Singapore');
    expect(placeAddress({ name: null, countryCode: null }, 'en')).toBeNull();
    // A code Intl does not know is shown as stored rather than breaking the page.
    expect(placeAddress({ name: 'Somewhere', countryCode: 'not a code' }, 'en')).toBe('Somewhere, not a code');
  });
});

describe('positionAddress', () => {
  it('uses the parts when the position has them, and the stored text of an older position', () => {
    expect(positionAddress({ address: '12 km from Bogor, Indonesia', place: null }, 'id')).toBe(
      '12 km from Bogor, Indonesia',
    );
    expect(positionAddress({ address: 'Bogor, Indonesia' }, 'id')).toBe('Bogor, Indonesia');
    expect(positionAddress({ address: 'Berlin, Germany', place: { name: 'Berlin', countryCode: 'DE' } }, 'id')).toBe(
      'Berlin, Jerman',
    );
  });
});
