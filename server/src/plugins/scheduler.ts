import fp from 'fastify-plugin';
import { Scheduler } from '../lib/scheduler';

declare module 'fastify' {
  interface FastifyInstance {
    scheduler: Scheduler;
  }
}

/**
 * The one loop of background work (lib/scheduler.ts). It starts once the app is ready and stops before anything
 * closes (preClose), waiting for the runs under way, so no job meets a closed database.
 */
export default fp(
  async (app) => {
    const scheduler = new Scheduler(app.log);
    app.decorate('scheduler', scheduler);
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('preClose', () => scheduler.close());
  },
  { name: 'scheduler' },
);
