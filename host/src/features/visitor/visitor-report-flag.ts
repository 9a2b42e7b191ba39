// The device report is sent once per visitor and host, guarded by a local flag set only after
// success. localStorage is per origin; the flag holds the id it was sent for, so a new visitor id (its
// cookie cleared) is reported again.
const flagKey = 'kabari-visitor-reported';

export function visitorAlreadyReported(visitorId: string): boolean {
  try {
    return localStorage.getItem(flagKey) === visitorId;
  } catch {
    return false;
  }
}

export function markVisitorReported(visitorId: string): void {
  try {
    localStorage.setItem(flagKey, visitorId);
  } catch {
    // Storage refused (private mode, quota): it is sent again next time, which the server tolerates.
  }
}
