// The number a visitor searched on the home page before creating their account: once the account is paid for, the
// dashboard offers to ask that number. It stays in this tab's session storage and is never sent to the server
// (Kabari stores nothing about a relative before they consent); the dashboard forgets it once it has offered it.
const key = 'kabari-searched-number';

/** Keeps the number (E.164) for the dashboard, or forgets it with null. */
export function rememberSearchedNumber(e164: string | null): void {
  try {
    if (e164) sessionStorage.setItem(key, e164);
    else sessionStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): the dashboard then starts with an empty number, as for any subscriber.
  }
}

/** The number kept by the sign-up in this tab, if any. */
export function searchedNumber(): string | null {
  try {
    const value = sessionStorage.getItem(key);
    return value && /^\+[1-9]\d{6,14}$/.test(value) ? value : null;
  } catch {
    return null;
  }
}
