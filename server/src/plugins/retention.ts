import fp from 'fastify-plugin';
import type { Config } from '../config';
import { rekeyOptOuts } from '../requests/opt-outs';
import { pruneExpiredData } from '../retention/retention-job';

const FIRST_RUN_DELAY_MS = 60_000;
const INTERVAL_MS = 60 * 60 * 1000;

/** Runs the retention job a minute after start, then every hour. */
export default fp(
  async (app, options: { config: Config }) => {
    const { retentionDays } = options.config;
    app.scheduler.add('retention', { everyMs: INTERVAL_MS, firstAfterMs: FIRST_RUN_DELAY_MS }, async () => {
      const result = await pruneExpiredData(app.db, retentionDays);
      if (Object.values(result).some((count) => typeof count === 'number' && count > 0)) {
        app.log.info(result, 'Retention: deleted personal data past its retention period');
      }
      const rekeyed = await rekeyOptOuts(app.db, app.auth.secrets.hmacSecret);
      if (rekeyed.requests > 0) app.log.info(rekeyed, 'Retention: keyed the opt-out hashes of older requests');
    });
  },
  { name: 'retention', dependencies: ['database', 'auth', 'scheduler'] },
);
