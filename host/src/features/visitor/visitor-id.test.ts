import {
  ensureVisitorId,
  fbVisitorCookieName,
  newVisitorId,
  visitorCookieName,
  visitorIdFromStored,
} from './visitor-id';

/** A cookie jar that records what was written, and reads like document.cookie. */
function jar(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  const written: string[] = [];
  return {
    written,
    get cookie() {
      return [...values].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      written.push(line);
      const [pair] = line.split(';');
      const [name, value] = (pair ?? '').split('=');
      values.set(name ?? '', value ?? '');
    },
  };
}

describe('visitor id cookies', () => {
  it('creates an id on the first visit and writes both cookies with their attributes', () => {
    const cookies = jar({ locale: 'id' });
    expect(ensureVisitorId(cookies, () => 'v-123')).toBe('v-123');
    expect(cookies.written).toEqual([
      `${visitorCookieName}=v-123; max-age=31536000; path=/; samesite=lax; secure`,
      `${fbVisitorCookieName}=v-123; max-age=31536000; path=/`,
    ]);
  });

  it('keeps a stored id, using the part before a triple underscore', () => {
    const cookies = jar({ G_P_L_Visitor_Id: 'abc___1700000000' });
    expect(ensureVisitorId(cookies, () => 'new')).toBe('abc');
    expect(cookies.cookie).toContain('FB_G_P_L_Visitor_Id=abc');
  });

  it('falls back on the FB_ twin where the secure cookie could not be kept (plain http)', () => {
    expect(ensureVisitorId(jar({ FB_G_P_L_Visitor_Id: 'twin___x' }), () => 'new')).toBe('twin');
  });

  it('reads stored values', () => {
    expect(visitorIdFromStored('a___b___c')).toBe('a');
    expect(visitorIdFromStored('___b')).toBeNull();
    expect(visitorIdFromStored(null)).toBeNull();
  });

  it('makes random ids of at least 128 bits', () => {
    const id = newVisitorId();
    expect(id.replace(/-/g, '')).toMatch(/^[0-9a-f]{32}$/);
    expect(newVisitorId()).not.toBe(id);
  });
});
