-- Operators (the safety desk's own accounts), their recovery codes and sessions, and the append-only audit log.
CREATE TABLE "operators" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"totp_secret" text,
	"pending_totp_secret" text,
	"last_totp_step" bigint,
	"enrolment_token_hash" text,
	"enrolment_expires_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"locale" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operators_email_lower_case" CHECK ("operators"."email" = lower("operators"."email")),
	CONSTRAINT "operators_locale_check" CHECK ("operators"."locale" in ('en', 'id'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operators_email_unique" ON "operators" USING btree ("email");
--> statement-breakpoint
CREATE UNIQUE INDEX "operators_enrolment_token_unique" ON "operators" USING btree ("enrolment_token_hash") WHERE "operators"."enrolment_token_hash" is not null;
--> statement-breakpoint
CREATE TABLE "operator_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_recovery_codes" ADD CONSTRAINT "operator_recovery_codes_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_recovery_codes_operator_code_unique" ON "operator_recovery_codes" USING btree ("operator_id","code_hash");
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "operator_sessions" ADD CONSTRAINT "operator_sessions_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_sessions_token_hash_unique" ON "operator_sessions" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "operator_sessions_operator_idx" ON "operator_sessions" USING btree ("operator_id");
--> statement-breakpoint
CREATE TABLE "operator_audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operator_id" uuid NOT NULL,
	"action" text NOT NULL,
	"object_type" text NOT NULL,
	"object_id" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_audit_log" ADD CONSTRAINT "operator_audit_log_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "operator_audit_log_created_at_idx" ON "operator_audit_log" USING btree ("created_at");
--> statement-breakpoint
-- Append-only: no row is ever changed, and none is deleted before the retention period (3 years, the retention
-- job's OPERATOR_AUDIT_YEARS) has passed; a truncate would delete young rows too.
CREATE FUNCTION "operator_audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND OLD."created_at" < now() - interval '3 years' THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'operator_audit_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "operator_audit_log_append_only" BEFORE UPDATE OR DELETE ON "operator_audit_log"
	FOR EACH ROW EXECUTE FUNCTION "operator_audit_log_append_only"();
--> statement-breakpoint
CREATE TRIGGER "operator_audit_log_no_truncate" BEFORE TRUNCATE ON "operator_audit_log"
	FOR EACH STATEMENT EXECUTE FUNCTION "operator_audit_log_append_only"();
