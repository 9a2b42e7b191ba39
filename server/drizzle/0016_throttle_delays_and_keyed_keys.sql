-- Sign-in throttling waits longer after each failure instead of locking an account: the moment the next attempt
-- may come.
ALTER TABLE "auth_throttles" ADD COLUMN "blocked_until" timestamp with time zone;--> statement-breakpoint
-- Counters about an address or an email are now keyed by an HMAC of it (`<kind>:` and 32 base64url characters).
-- The rows under the old keys held emails and IP addresses in the clear: they go. None counts over more than an
-- hour, so at most one window is forgotten.
DELETE FROM "auth_throttles"
  WHERE "key" ~ '^(login:(ip|account)|send-code:(ip|account)|reset:ip|auth-code:ip|register:ip|refund:ip|contact:ip):'
    AND "key" !~ ':[A-Za-z0-9_-]{32}$';
