import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  decodePlaceIndex,
  encodePlaceIndex,
  openPlaceIndex,
  PLACE_INDEX_FILE,
  writePlaceIndex,
  type NamedPlace,
} from '../../src/geo/place-index';

const places: NamedPlace[] = [
  { name: 'Jakarta', country: 'ID', latitude: -6.2146, longitude: 106.8451 },
  { name: 'Bogor', country: 'ID', latitude: -6.5944, longitude: 106.7892 },
  { name: 'São Paulo', country: 'BR', latitude: -23.5475, longitude: -46.6361 },
  { name: 'Żyrardów', country: 'PL', latitude: 52.0488, longitude: 20.4459 },
  { name: 'Nowhere', country: '', latitude: 10, longitude: 10 },
];

describe('the place index file', () => {
  const index = decodePlaceIndex(encodePlaceIndex(places));

  it('names the place a position is in, with its country', () => {
    expect(index.nearest(-6.2, 106.84)).toEqual({ name: 'Jakarta', countryCode: 'ID', distanceKm: null });
    expect(index.nearest(-23.55, -46.63)).toEqual({ name: 'São Paulo', countryCode: 'BR', distanceKm: null });
    expect(index.nearest(52.05, 20.45)).toEqual({ name: 'Żyrardów', countryCode: 'PL', distanceKm: null });
  });

  it('says how far the nearest place is when the position is not in one', () => {
    // 0.2° of latitude south of Bogor: about 22 km.
    expect(index.nearest(-6.7944, 106.7892)).toEqual({ name: 'Bogor', countryCode: 'ID', distanceKm: 22 });
  });

  it('measures from the place it names when the tree has reordered the positions', () => {
    // More places than a leaf of the tree holds, so that building it sorts their positions.
    const grid: NamedPlace[] = Array.from({ length: 300 }, (_, i) => ({
      name: `Place ${i}`,
      country: 'ID',
      latitude: -10 + (i % 20),
      longitude: 95 + Math.floor(i / 20),
    }));
    const gridIndex = decodePlaceIndex(encodePlaceIndex(grid));
    for (const [i, place] of grid.entries()) {
      // 0.1° of latitude north of each place: 11 km.
      expect(gridIndex.nearest(place.latitude + 0.1, place.longitude)).toEqual({
        name: `Place ${i}`,
        countryCode: 'ID',
        distanceKm: 11,
      });
    }
  });

  it('names the nearest of thousands of places, as a search through every one of them would', () => {
    // A fixed pseudo-random spread over Indonesia and around it: many leaves of the tree, positions between them.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const many: NamedPlace[] = Array.from({ length: 3000 }, (_, i) => ({
      name: `Place ${i}`,
      country: 'ID',
      latitude: -11 + next() * 17,
      longitude: 94 + next() * 48,
    }));
    const manyIndex = decodePlaceIndex(encodePlaceIndex(many));
    const rad = Math.PI / 180;
    const haversine = (lat1: number, lon1: number, lat2: number, lon2: number) =>
      Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
      Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
    for (let query = 0; query < 300; query++) {
      const latitude = -11 + next() * 17;
      const longitude = 94 + next() * 48;
      let best = many[0]!;
      for (const place of many) {
        if (
          haversine(latitude, longitude, place.latitude, place.longitude) <
          haversine(latitude, longitude, best.latitude, best.longitude)
        ) {
          best = place;
        }
      }
      expect(manyIndex.nearest(latitude, longitude)?.name).toBe(best.name);
    }
  });

  it('gives no country for a place without a two-letter code', () => {
    expect(index.nearest(10, 10)).toEqual({ name: 'Nowhere', countryCode: null, distanceKm: null });
  });

  it('reads a file whose bytes start anywhere in their buffer', () => {
    const bytes = encodePlaceIndex(places);
    const shifted = Buffer.alloc(bytes.length + 3).fill(7);
    bytes.copy(shifted, 3);
    expect(decodePlaceIndex(shifted.subarray(3)).nearest(-6.59, 106.79)?.name).toBe('Bogor');
  });

  it('refuses bytes of another kind, another version, or of another length', () => {
    const bytes = encodePlaceIndex(places);
    expect(() => decodePlaceIndex(Buffer.from('not an index'))).toThrow('Not a place index');
    const otherVersion = Buffer.from(bytes);
    otherVersion.write('2', 7, 'latin1');
    expect(() => decodePlaceIndex(otherVersion)).toThrow('Not a place index');
    expect(() => decodePlaceIndex(bytes.subarray(0, bytes.length - 1))).toThrow('not the length');
    expect(() => decodePlaceIndex(Buffer.concat([bytes, Buffer.from([0])]))).toThrow('not the length');
  });
});

describe('openPlaceIndex', () => {
  let folder: string;
  const log = { warn: jest.fn() };
  const fewPlaces = () => places.slice(0, 2);

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-places-'));
    log.warn.mockClear();
  });

  afterEach(() => {
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('is looked for beside the reverse geocoder, where the production build writes it', () => {
    expect(path.dirname(PLACE_INDEX_FILE)).toBe(path.resolve(__dirname, '../../src/geo'));
  });

  it('reads the index from the file the build writes', async () => {
    const file = path.join(folder, 'places.bin');
    await writePlaceIndex(file, () => places);
    const index = await openPlaceIndex(log, file, () => {
      throw new Error('the places are not indexed again when the file is there');
    });
    expect(index.nearest(-23.55, -46.63)?.name).toBe('São Paulo');
    expect(log.warn).not.toHaveBeenCalled();
  });

  it("in the server's tests, opens the index of the bundled places their global setup wrote", async () => {
    const index = await openPlaceIndex(log, undefined, () => {
      throw new Error('the places were indexed again');
    });
    expect(index.nearest(-6.1754, 106.8272)).toEqual({ name: 'Jakarta', countryCode: 'ID', distanceKm: null });
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('indexes the places itself when run from source without a file, and says nothing', async () => {
    const index = await openPlaceIndex(log, path.join(folder, 'absent.bin'), fewPlaces);
    expect(index.nearest(-6.59, 106.79)?.name).toBe('Bogor');
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('warns the operator of a file it cannot read, and indexes the places itself', async () => {
    const file = path.join(folder, 'places.bin');
    fs.writeFileSync(file, 'KBPLACE1 and then nothing');
    const index = await openPlaceIndex(log, file, fewPlaces);
    expect(index.nearest(-6.2, 106.84)?.name).toBe('Jakarta');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]?.[1]).toMatch(/place index cannot be read/);
  });
});
