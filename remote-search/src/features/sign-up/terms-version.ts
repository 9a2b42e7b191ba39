/**
 * The terms of use the sign-up asks consent to: their "last updated" date, as the terms page shows it
 * (search-terms.*.json `updated`; a test keeps the two in step). Sent with the consent and stored by the server.
 */
export const termsVersion = '2026-11-22';
