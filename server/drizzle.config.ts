import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` (from server/) writes SQL migrations into drizzle/; they run on start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/*.ts',
  out: './drizzle',
});
