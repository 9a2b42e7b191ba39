import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createTestDatabase, type DriverName, type TestDatabase } from './databases';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The whole app on a fresh database, ready for app.inject(). */
export async function buildTestApp(
  driver: DriverName = 'pglite',
  env: Record<string, string> = {},
  options: {
    logger?: FastifyServerOptions['logger'];
    beforeReady?: (app: FastifyInstance) => void;
    /** More options for buildApp (e.g. an injected Twilio HTTP client). */
    build?: Omit<BuildAppOptions, 'logger'>;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(driver);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RSA_PRIVATE_KEY: process.env.KABARI_TEST_RSA_PRIVATE_KEY,
    ...database.env,
    ...env,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp(config, { checkAnswers: true, ...options.build, logger: options.logger ?? false });
    options.beforeReady?.(app);
    await app.ready();
  } catch (error) {
    await database.cleanup();
    throw error;
  }
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await database.cleanup();
    },
  };
}

/** Another instance of the app on `first`'s PostgreSQL database, as a second server behind a load balancer. */
export async function buildSecondInstance(first: TestApp): Promise<FastifyInstance> {
  return buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      RSA_PRIVATE_KEY: process.env.KABARI_TEST_RSA_PRIVATE_KEY,
      ...first.database.env,
    }),
    { logger: false, checkAnswers: true },
  );
}
