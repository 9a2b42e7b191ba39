import fp from 'fastify-plugin';
import type { Config } from '../config';
import { openDatabase, type Database, type DatabaseClient } from '../db/open-database';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    dbClient: DatabaseClient;
  }
}

/** The database: embedded PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL. Migrated on start, closed on shutdown. */
export default fp(
  async (app, options: { config: Config }) => {
    const { db, client } = await openDatabase(options.config, {
      info: (message) => app.log.info(message),
      error: (object, message) => app.log.error(object, message),
    });
    app.decorate('db', db);
    app.decorate('dbClient', client);
    app.addHook('onClose', async () => {
      await client.close();
    });
  },
  { name: 'database' },
);
