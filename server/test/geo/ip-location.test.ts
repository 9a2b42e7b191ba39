import { ipPlaceParts, lookupIp } from '../../src/geo/ip-location';
import { englishAddress } from '../../src/geo/place';

describe('lookupIp (bundled DB-IP Lite city database)', () => {
  it('places well-known public resolvers where the bundled database puts them', () => {
    // Google's resolver is in the United States and Cloudflare's 1.1.1.1 in Australia in DB-IP's data.
    const google = lookupIp('8.8.8.8');
    expect(google).toMatchObject({ countryCode: 'US' });
    expect(google?.latitude).toEqual(expect.any(Number));
    expect(lookupIp('1.1.1.1')).toMatchObject({ countryCode: 'AU' });
  });

  it('reads an IPv4 address written as IPv6, and IPv6 addresses', () => {
    expect(lookupIp('::ffff:8.8.8.8')?.countryCode).toBe('US');
    expect(lookupIp('2001:4860:4860::8888')?.countryCode).toEqual(expect.stringMatching(/^[A-Z]{2}$/));
  });

  it('knows nothing of private, loopback or malformed addresses', () => {
    expect(lookupIp('10.1.2.3')).toBeNull();
    expect(lookupIp('127.0.0.1')).toBeNull();
    expect(lookupIp('::1')).toBeNull();
    expect(lookupIp('not an address')).toBeNull();
  });

  it('keeps the parts of a place it knows, written without the parts it does not know', () => {
    const jakarta = { countryCode: 'ID', region: 'Jakarta', city: 'Jakarta', latitude: 0, longitude: 0 };
    const california = { countryCode: 'US', region: 'California', city: null, latitude: 0, longitude: 0 };
    // What is stored with the position, as the share route does: the parts, and their English text.
    expect(ipPlaceParts(jakarta)).toEqual({ name: 'Jakarta', region: null, countryCode: 'ID' });
    expect(englishAddress(ipPlaceParts(jakarta))).toBe('Jakarta, Indonesia');
    expect(ipPlaceParts(california)).toEqual({ name: 'California', region: null, countryCode: 'US' });
    expect(englishAddress(ipPlaceParts(california))).toBe('California, United States');
    expect(ipPlaceParts({ countryCode: null, region: null, city: null, latitude: 0, longitude: 0 })).toBeNull();
    expect(englishAddress(null)).toBeNull();
  });
});
