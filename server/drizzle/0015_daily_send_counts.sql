-- How many SMS and emails each account, and everyone together (sms:all), sent on a day (UTC): the daily limits and
-- the operator's SMS budget, counted in the database so they hold across instances and restarts.
CREATE TABLE "daily_send_counts" (
	"key" text NOT NULL,
	"day" date NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "daily_send_counts_key_day_pk" PRIMARY KEY("key","day"),
	CONSTRAINT "daily_send_counts_count_check" CHECK ("daily_send_counts"."count" >= 0)
);
