-- The request history's notices (0033) without turning each changed row into JSON: the generic function read its key
-- through to_jsonb(NEW) (and to_jsonb(OLD) on every update), a whole location_requests row each time, for every
-- position a live share stores. The same notices, from the columns themselves.
CREATE OR REPLACE FUNCTION "kabari_request_list_changed_by_user"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF OLD.user_id IS NOT NULL THEN
      PERFORM pg_notify('kabari_request_events', 'list:' || OLD.user_id::text);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    -- An update's own user was told above (a row given to another user changes both lists).
    IF NEW.user_id IS NOT NULL THEN
      IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('kabari_request_events', 'list:' || NEW.user_id::text);
      ELSIF NEW.user_id IS DISTINCT FROM OLD.user_id THEN
        PERFORM pg_notify('kabari_request_events', 'list:' || NEW.user_id::text);
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "kabari_request_list_changed_by_request"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  request uuid;
  owner text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    request := OLD.request_id;
  ELSE
    request := NEW.request_id;
  END IF;
  -- Gone with its request (a cascade): the request's own row notifies.
  SELECT user_id::text INTO owner FROM location_requests WHERE id = request;
  IF owner IS NOT NULL THEN
    PERFORM pg_notify('kabari_request_events', 'list:' || owner);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "location_requests_list_changed" ON "location_requests";
--> statement-breakpoint
CREATE TRIGGER "location_requests_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "location_requests"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed_by_user"();
--> statement-breakpoint
DROP TRIGGER "positions_list_changed" ON "positions";
--> statement-breakpoint
CREATE TRIGGER "positions_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "positions"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed_by_request"();
--> statement-breakpoint
DROP TRIGGER "voice_notes_list_changed" ON "voice_notes";
--> statement-breakpoint
CREATE TRIGGER "voice_notes_list_changed" AFTER INSERT OR UPDATE OR DELETE ON "voice_notes"
  FOR EACH ROW EXECUTE FUNCTION "kabari_request_list_changed_by_request"();
