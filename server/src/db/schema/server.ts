import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

// The server's own settings.

/** Values the server itself owns (its RSA key pair, its secret), shared by every instance. */
export const serverSettings = pgTable('server_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
