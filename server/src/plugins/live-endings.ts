import fp from 'fastify-plugin';
import type { Config } from '../config';
import { noticeLiveEndings } from '../requests/requester-notices';
import { endSilentLiveWindows } from '../sharing/link-consent';

// Within a minute of a live window's end, whichever instance runs it first.
const INTERVAL_MS = 30_000;

/**
 * Ends the live windows whose page fell silent (closed, the phone asleep), and tells requesters, by email, that a
 * recipient's live sharing reached its end time (requests/requester-notices).
 */
export default fp(
  async (app, options: { config: Config }) => {
    const deps = { outbox: app.outbox, publicUrl: options.config.publicUrl };
    app.scheduler.add('live-endings', { everyMs: INTERVAL_MS }, async () => {
      await endSilentLiveWindows(app.db);
      await noticeLiveEndings(app.db, deps);
    });
  },
  { name: 'live-endings', dependencies: ['database', 'outbox', 'scheduler'] },
);
