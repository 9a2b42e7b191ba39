/**
 * The billing code's notion of "now". The system clock in production; tests (and nothing else) set it, so that
 * renewals, reminders and expiry can be exercised at any moment without waiting.
 */
export class BillingClock {
  private fixed: Date | null = null;

  now(): Date {
    return this.fixed ? new Date(this.fixed) : new Date();
  }

  /** Pins the clock to a moment (tests); null goes back to the system clock. */
  set(moment: Date | null): void {
    this.fixed = moment ? new Date(moment) : null;
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export function addDays(moment: Date, days: number): Date {
  return new Date(moment.getTime() + days * DAY_MS);
}
