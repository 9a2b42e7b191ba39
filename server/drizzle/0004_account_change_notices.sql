-- Every instance caches who a session token belongs to and each user's subscription for a few seconds (GET
-- subscribe/info runs on every protected navigation). Any change to a user, a session or a subscription, whichever
-- instance or job makes it, tells every instance to forget that user's entries when the change commits.
CREATE OR REPLACE FUNCTION "kabari_account_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := to_jsonb(OLD);
  ELSE
    changed := to_jsonb(NEW);
  END IF;
  PERFORM pg_notify('kabari_account_changes', changed ->> TG_ARGV[0]);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "users_account_changed" AFTER UPDATE OR DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "kabari_account_changed"('id');
--> statement-breakpoint
CREATE TRIGGER "sessions_account_changed" AFTER UPDATE OR DELETE ON "sessions"
  FOR EACH ROW EXECUTE FUNCTION "kabari_account_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "subscriptions_account_changed" AFTER INSERT OR UPDATE OR DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "kabari_account_changed"('user_id');
