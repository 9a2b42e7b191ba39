import { eq } from 'drizzle-orm';
import { geocodeCache } from '../../src/db/schema';
import { createReverseGeocoder, nearestPlaceAddress } from '../../src/geo/reverse-geocode';
import { describeEachDatabase } from '../support/databases';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('nearestPlaceAddress (bundled GeoNames places)', () => {
  it('names Jakarta for a position at the National Monument', () => {
    expect(nearestPlaceAddress(-6.1754, 106.8272)).toMatch(/^[\w ]*Jakarta, Indonesia$/);
  });

  it('says how far the nearest place is when the position is not in one', () => {
    // The middle of the Indian Ocean, far from any town.
    const address = nearestPlaceAddress(-20, 80);
    expect(address).toMatch(/^\d+ km from .+, .+$/);
    // Over 1,000 km from any land with towns, and not half the globe away either.
    const kilometres = Number(/^(\d+)/.exec(address ?? '')?.[1]);
    expect(kilometres).toBeGreaterThan(1000);
    expect(kilometres).toBeLessThan(3000);
  });
});

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
      db: testApp.app.db,
      log,
      fetch: fetchMock as unknown as typeof fetch,
    });
    expect(await geocoder.addressOf(-6.1754, 106.8272)).toBe('Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia');
    expect(await geocoder.addressOf(-6.17541, 106.82721)).toBe('Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/^https:\/\/nominatim\.test\/reverse\?format=jsonv2&lat=-6\.1754&lon=106\.8272/);
    expect(init.headers).toMatchObject({ 'User-Agent': 'Kabari/test' });
    const [cached] = await testApp.app.db
      .select()
      .from(geocodeCache)
      .where(eq(geocodeCache.key, 'nominatim:-6.1754,106.8272'));
    expect(cached?.address).toBe('Jalan Medan Merdeka, Gambir, Jakarta Pusat, Indonesia');
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
      db: testApp.app.db,
      log,
      fetch: fetchMock as unknown as typeof fetch,
    });
    await Promise.all([geocoder.addressOf(1.1, 2.2), geocoder.addressOf(3.3, 4.4)]);
    expect(times).toHaveLength(2);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('falls back to the bundled places when the service fails', async () => {
    const geocoder = createReverseGeocoder({
      url: 'https://nominatim.test',
      userAgent: 'Kabari/test',
      db: testApp.app.db,
      log,
      fetch: (async () => new Response('busy', { status: 503 })) as unknown as typeof fetch,
    });
    expect(await geocoder.addressOf(-6.2, 106.85)).toMatch(/^[\w ]*Jakarta, Indonesia$/);
    expect(log.warn).toHaveBeenCalled();
  });
});
