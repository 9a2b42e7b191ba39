import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/accounts';
import { geocodeCache } from '../../src/db/schema/location-requests';
import { englishAddress } from '../../src/geo/place';
import { createReverseGeocoder, nearestPlace } from '../../src/geo/reverse-geocode';
import { eraseAccount } from '../../src/accounts/erasure-rows';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('nearestPlace (bundled GeoNames places)', () => {
  const log = { warn: jest.fn() };
  afterAll(() => expect(log.warn).not.toHaveBeenCalled());

  it('gives the parts of the place: name, country code and distance when not in it', async () => {
    expect(await nearestPlace(-6.1754, 106.8272, log)).toMatchObject({ countryCode: 'ID', distanceKm: null });
    const far = await nearestPlace(-20, 80, log);
    expect(far?.distanceKm).toBeGreaterThan(1000);
  });

  it('names Jakarta for a position at the National Monument', async () => {
    expect(englishAddress(await nearestPlace(-6.1754, 106.8272, log))).toMatch(/^[\w ]*Jakarta, Indonesia$/);
  });

  it('says how far the nearest place is when the position is not in one', async () => {
    // The middle of the Indian Ocean, far from any town.
    const address = englishAddress(await nearestPlace(-20, 80, log));
    expect(address).toMatch(/^\d+ km from .+, .+$/);
    // Over 1,000 km from any land with towns, and not half the globe away either.
    const kilometres = Number(/^(\d+)/.exec(address ?? '')?.[1]);
    expect(kilometres).toBeGreaterThan(1000);
    expect(kilometres).toBeLessThan(3000);
  });
});

const keySecret = Buffer.from('a test secret');

describeEachDatabase('createReverseGeocoder with NOMINATIM_URL', (driver) => {
  let testApp: TestApp;
  const log = { warn: jest.fn() };

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it('asks the service with a User-Agent, caches the answer, and asks once per place', async () => {
    const fetchMock = jest.fn(async () =>
      Response.json({ display_name: 'Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia' }),
    );
    const geocoder = createReverseGeocoder({
      url: 'https://nominatim.test',
      userAgent: 'Kabari/test',
      keySecret,
      db: testApp.app.db,
      log,
      fetch: fetchMock as unknown as typeof fetch,
    });
    expect(englishAddress(await geocoder.placeOf(-6.1754, 106.8272))).toBe(
      'Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia',
    );
    expect(englishAddress(await geocoder.placeOf(-6.17541, 106.82721))).toBe(
      'Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia',
    );
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/^https:\/\/nominatim\.test\/reverse\?format=jsonv2&lat=-6\.1754&lon=106\.8272/);
    expect(init.headers).toMatchObject({ 'User-Agent': 'Kabari/test' });
    // Names in the place's own language; the country, as a code, is named in the reader's.
    expect(url).not.toContain('accept-language');
    expect(url).toContain('addressdetails=1');
    const key = geocoder.cacheKeyOf(-6.1754, 106.8272);
    const [cached] = await testApp.app.db.select().from(geocodeCache).where(eq(geocodeCache.key, key!));
    expect(cached?.place).toEqual({ name: 'Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia', countryCode: null });
    // The key does not say where: it is an HMAC of the rounded position.
    expect(JSON.stringify(await testApp.app.db.select({ key: geocodeCache.key }).from(geocodeCache))).not.toMatch(
      /6\.175|106\.82/,
    );
    expect(geocoder.cacheKeyOf(-6.17541, 106.82721)).toBe(key);
    expect(geocoder.cacheKeyOf(-6.1764, 106.8272)).not.toBe(key);
  });

  it('keeps the country as a code, for each reader to name in their language', async () => {
    const fetchMock = jest.fn(async () =>
      Response.json({
        display_name: 'Jalan Kebon Sirih, Menteng, Jakarta Pusat, Indonesia',
        address: { country: 'Indonesia', country_code: 'id' },
      }),
    );
    const geocoder = createReverseGeocoder({
      url: 'https://nominatim.test',
      userAgent: 'Kabari/test',
      keySecret,
      db: testApp.app.db,
      log,
      fetch: fetchMock as unknown as typeof fetch,
    });
    expect(await geocoder.placeOf(-6.185, 106.83)).toEqual({
      name: 'Jalan Kebon Sirih, Menteng, Jakarta Pusat',
      countryCode: 'ID',
    });
    expect(englishAddress(await geocoder.placeOf(-6.185, 106.83))).toBe(
      'Jalan Kebon Sirih, Menteng, Jakarta Pusat, Indonesia',
    );
  });

  it('keeps a second apart between requests', async () => {
    const times: number[] = [];
    const fetchMock = jest.fn(async () => {
      times.push(Date.now());
      return Response.json({ display_name: 'Somewhere' });
    });
    const geocoder = createReverseGeocoder({
      url: 'https://nominatim.test',
      userAgent: 'Kabari/test',
      keySecret,
      db: testApp.app.db,
      log,
      fetch: fetchMock as unknown as typeof fetch,
    });
    await Promise.all([geocoder.placeOf(1.1, 2.2), geocoder.placeOf(3.3, 4.4)]);
    expect(times).toHaveLength(2);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('falls back to the bundled places when the service fails', async () => {
    const geocoder = createReverseGeocoder({
      url: 'https://nominatim.test',
      userAgent: 'Kabari/test',
      keySecret,
      db: testApp.app.db,
      log,
      fetch: (async () => new Response('busy', { status: 503 })) as unknown as typeof fetch,
    });
    expect(englishAddress(await geocoder.placeOf(-6.2, 106.85))).toMatch(/^[\w ]*Jakarta, Indonesia$/);
    expect(log.warn).toHaveBeenCalled();
  });
});

describeEachDatabase('Stop and erase, and deleting the account, with NOMINATIM_URL', (driver) => {
  let testApp: TestApp;
  let fetchSpy: jest.SpyInstance;

  beforeAll(async () => {
    // The app's geocoder takes the global fetch when it is made: answered here instead of a real service.
    fetchSpy = jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => Response.json({ display_name: 'Jalan Kebon Sirih 1, Jakarta, Indonesia' }));
    testApp = await buildTestApp(driver, { NOMINATIM_URL: 'https://nominatim.test' });
  });

  afterAll(async () => {
    fetchSpy.mockRestore();
    await testApp?.close();
  });

  /** A request whose recipient shared a position (its street address cached); `cached` reads that cache entry. */
  async function sharedPosition(latitude: number, longitude: number) {
    const { app } = testApp;
    const userId = await insertRequester(app.db);
    const request = await insertRequest(app.db, userId);
    const link = (action: string) => `/api/v1/share/links/${request.token}${action}`;
    await app.inject({ method: 'POST', url: link('/consent') });
    const posted = await app.inject({
      method: 'POST',
      url: link('/positions'),
      payload: { latitude, longitude, accuracy: 9, recordedAt: new Date().toISOString() },
    });
    expect(posted.json().data.accepted).toBe(true);
    const key = app.geo.reverseGeocoder.cacheKeyOf(latitude, longitude)!;
    const cached = () => app.db.select().from(geocodeCache).where(eq(geocodeCache.key, key));
    expect(await cached()).toHaveLength(1);
    return { userId, link, cached };
  }

  it('erases the cached street address of every position it erases', async () => {
    const { link, cached } = await sharedPosition(-6.1862, 106.8263);
    expect((await testApp.app.inject({ method: 'POST', url: link('/withdraw') })).json().data.state).toBe('withdrawn');
    expect(await cached()).toHaveLength(0);
  });

  it("a deleted account takes the cached street addresses of its requests' positions with it", async () => {
    const { app } = testApp;
    const { userId, cached } = await sharedPosition(-6.2001, 106.8166);
    const [user] = await app.db.select().from(users).where(eq(users.id, userId));
    await app.db.transaction((tx) => eraseAccount(tx, user!, app.geo.reverseGeocoder, app.auth.secrets.hmacSecret));
    expect(await cached()).toHaveLength(0);
  });
});
