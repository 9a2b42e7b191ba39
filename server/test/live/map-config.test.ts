import { ConfigError, loadConfig } from '../../src/config';
import { tileOrigin } from '../../src/live/map-config';
import { contentSecurityPolicy } from '../../src/plugins/helmet';

describe('map tiles configuration', () => {
  it("defaults to OpenStreetMap's tiles and its copyright link", () => {
    expect(loadConfig({}).map).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileAttribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    });
  });

  it('takes TILE_URL and TILE_ATTRIBUTION, and refuses a template without {z}, {x} and {y}', () => {
    const config = loadConfig({ TILE_URL: 'https://{s}.tiles.example.com/{z}/{x}/{y}{r}.png', TILE_ATTRIBUTION: 'Ex' });
    expect(config.map).toEqual({ tileUrl: 'https://{s}.tiles.example.com/{z}/{x}/{y}{r}.png', tileAttribution: 'Ex' });
    expect(() => loadConfig({ TILE_URL: 'https://tiles.example.com/{z}/{x}.png' })).toThrow(ConfigError);
    expect(() => loadConfig({ TILE_URL: 'ftp://tiles.example.com/{z}/{x}/{y}.png' })).toThrow(/TILE_URL/);
  });

  it('names the tile origin for the CSP, {s} subdomains as a wildcard', () => {
    expect(tileOrigin('https://{s}.tiles.example.com/{z}/{x}/{y}.png')).toBe('https://*.tiles.example.com');
    expect(tileOrigin('http://127.0.0.1:8081/tiles/{z}/{x}/{y}.png')).toBe('http://127.0.0.1:8081');
  });

  it('lets images load from a plain-http tile server, and from any https one', () => {
    expect(contentSecurityPolicy(loadConfig({})).imgSrc).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    const local = contentSecurityPolicy(loadConfig({ TILE_URL: 'http://127.0.0.1:8081/{z}/{x}/{y}.png' }));
    expect(local.imgSrc).toContain('http://127.0.0.1:8081');
  });
});
