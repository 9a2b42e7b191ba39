-- Every instance keeps a requester's request history pages in memory for a few seconds (GET /api/v1/requests is the
-- dashboard's list). Any change to what a page shows (a request, its message's delivery, its positions, its voice
-- notes), whichever instance or job makes it, tells every instance to forget that requester's pages when it commits:
-- on the request events channel, which every instance already listens on, as `list:<user id>` (an event's own
-- notification is its id alone).
CREATE OR REPLACE FUNCTION "kabari_request_list_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
  key text;
  owner text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    changed := to_jsonb(OLD);
  ELSE
    changed := to_jsonb(NEW);
  END IF;
  key := changed ->> TG_ARGV[1];
  IF key IS NULL THEN
    RETURN NULL;
  END IF;
  IF TG_ARGV[0] = 'user' THEN
    PERFORM pg_notify('kabari_request_events', 'list:' || key);
    -- A row given to another user (never done today) changes the first user's list too.
    IF TG_OP = 'UPDATE' AND (to_jsonb(OLD) ->> TG_ARGV[1]) IS DISTINCT FROM key THEN
      PERFORM pg_notify('kabari_request_events', 'list:' || (to_jsonb(OLD) ->> TG_ARGV[1]));
    END IF;
  ELSIF TG_ARGV[0] = 'request' THEN
    -- Gone with its request (a cascade): the request's own row notifies.
    SELECT user_id::text INTO owner FROM location_requests WHERE id = key::uuid;
    IF owner IS NOT NULL THEN
      PERFORM pg_notify('kabari_request_events', 'list:' || owner);
    END IF;
  ELSE
    FOR owner IN SELECT DISTINCT user_id::text FROM location_requests WHERE message_id = key::uuid LOOP
      PERFORM pg_notify('kabari_request_events', 'list:' || owner);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "location_requests_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "location_requests"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed"('user', 'user_id');
--> statement-breakpoint
CREATE TRIGGER "positions_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "positions"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed"('request', 'request_id');
--> statement-breakpoint
CREATE TRIGGER "voice_notes_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "voice_notes"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed"('request', 'request_id');
--> statement-breakpoint
-- Only what the list shows of a message: its attempts and retries change nothing there.
CREATE TRIGGER "outbox_messages_list_changed" AFTER UPDATE ON "outbox_messages"
  FOR EACH ROW WHEN (
    OLD.state IS DISTINCT FROM NEW.state OR OLD.transport IS DISTINCT FROM NEW.transport
    OR OLD.receipt IS DISTINCT FROM NEW.receipt OR OLD.receipt_error_code IS DISTINCT FROM NEW.receipt_error_code
  )
  EXECUTE FUNCTION "kabari_request_list_changed"('message', 'id');
--> statement-breakpoint
CREATE INDEX "location_requests_message_id_idx" ON "location_requests" USING btree ("message_id")
  WHERE "message_id" IS NOT NULL;
