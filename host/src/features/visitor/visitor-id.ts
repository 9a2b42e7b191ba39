/** The persistent visitor identifier, and its twin under an FB_ prefix. */
export const visitorCookieName = 'G_P_L_Visitor_Id';
export const fbVisitorCookieName = `FB_${visitorCookieName}`;
const oneYearSeconds = 31_536_000;

/** Where cookies are read and written: `document`, or a stand-in in tests. */
export interface CookieJar {
  cookie: string;
}

function readCookie(jar: CookieJar, name: string): string | null {
  for (const part of jar.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(value.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A stored value may carry more after a triple underscore: only the first part is the id. */
export function visitorIdFromStored(stored: string | null): string | null {
  const id = stored?.split('___')[0]?.trim();
  return id ? id : null;
}

export function newVisitorId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID exists only in secure contexts; a page served over plain http still gets 128 random bits.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The visitor's id: the one stored in G_P_L_Visitor_Id (or, where the browser refused that secure
 * cookie on plain http, in its FB_ twin), else a new one. Both cookies are (re)written with it: the
 * first with max-age 31536000, path /, SameSite=Lax and Secure, the twin with a one-year max-age.
 */
export function ensureVisitorId(jar: CookieJar = document, createId: () => string = newVisitorId): string {
  const id =
    visitorIdFromStored(readCookie(jar, visitorCookieName)) ??
    visitorIdFromStored(readCookie(jar, fbVisitorCookieName)) ??
    createId();
  const value = encodeURIComponent(id);
  jar.cookie = `${visitorCookieName}=${value}; max-age=${oneYearSeconds}; path=/; samesite=lax; secure`;
  // The twin needs only its max-age; path / keeps it one cookie for the whole site.
  jar.cookie = `${fbVisitorCookieName}=${value}; max-age=${oneYearSeconds}; path=/`;
  return id;
}
