// First, before the app's modules load and the first full garbage collection: see the module.
import './lib/tick-object-shape';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig, startupNotes, type Config } from './config';

async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  let app;
  try {
    app = await buildApp(config);
    await app.ready();
  } catch (error) {
    // Typically the database: DATA_DIR locked by another process, or PostgreSQL unreachable.
    process.stderr.write(`Kabari server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    if (app) await app.close().catch(() => undefined);
    process.exit(1);
  }

  // Slow clients must not hold sockets forever; keep-alive just above common load-balancer idle timeouts.
  app.server.requestTimeout = 30_000;
  app.server.headersTimeout = 20_000;
  app.server.keepAliveTimeout = 65_000;

  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'Closing the server after an uncaught error');
    else app.log.info(`${signal ?? 'Shutdown'} received, closing the server`);
    // Stops accepting connections, waits for in-flight requests, then closes the database and its lock.
    await app.close();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    app.log.error({ err: error }, `Could not listen on ${config.host}:${config.port}`);
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  const notes = startupNotes(config);
  for (const line of notes.info) app.log.info(line);
  for (const line of notes.warnings) app.log.warn(line);
  // The lines with the dev tools' token go to the terminal only, never through the logger.
  if (notes.terminal.length > 0) process.stdout.write(`\n${notes.terminal.join('\n')}\n\n`);
}

void start();
