// The sign-up (remote-search) notes that no password was chosen; the welcome dialog (remote-billing)
// then offers to set one by the emailed code. Session storage: it concerns this browser tab's sign-up only.
const key = 'kabari-password-pending';

export function markPasswordPending(pending: boolean): void {
  try {
    if (pending) sessionStorage.setItem(key, '1');
    else sessionStorage.removeItem(key);
  } catch {
    // Storage refused (private mode): the welcome dialog then does not offer it; the login dialog's reset still does.
  }
}

export function isPasswordPending(): boolean {
  try {
    return sessionStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}
