import { z } from 'zod';
import { webAddress } from '../lib/web-address';

/** OpenStreetMap's standard tiles: fine for light use under its tile usage policy; set TILE_URL for more. */
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

export interface MapConfig {
  /** Leaflet tile URL template: {z}/{x}/{y}, optionally {s} (subdomains) and {r} (retina). */
  tileUrl: string;
  /** HTML shown in the map's corner, as the tile provider requires. */
  tileAttribution: string;
}

// Leaflet's placeholders are not valid in a URL: check the URL with sample values in their place.
function sampleTileUrl(template: string): string {
  return template.replace(/\{s\}/g, 'a').replace(/\{[a-z]+\}/gi, '0');
}

export const tileUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    if (!value.includes('{z}') || !value.includes('{x}') || !value.includes('{y}')) return false;
    return webAddress(sampleTileUrl(value)) !== null;
  }, 'expected an http(s) tile URL template with {z}, {x} and {y}');

export const tileAttributionSchema = z.string().trim().min(1).max(1000);

/** The origin the browser fetches tiles from, for the CSP's img-src: `{s}` subdomains become a wildcard. */
export function tileOrigin(tileUrl: string): string {
  const url = new URL(sampleTileUrl(tileUrl.replace(/\{s\}\./g, 'subdomain-wildcard.')));
  return `${url.protocol}//${url.host.replace('subdomain-wildcard.', '*.')}`;
}
