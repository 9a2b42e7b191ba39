import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '../support/fixtures';
import { startNode, waitForApp, type Process } from '../support/deployment';
import { devToolsToken, freePort } from '../support/kabari-server';
import { outboxMessages } from '../support/outbox';
import { signUpSubscriber } from '../support/subscriber';
import { startThrowawayCluster } from '../../server/test/support/postgres-cluster';

// The server killed with SIGKILL (no shutdown of any kind) while recipients post positions, then started again on
// the same database: every position it had acknowledged (200, accepted) is there. On embedded PGlite and on
// PostgreSQL.

interface Acknowledged {
  requestId: string;
  latitude: number;
  longitude: number;
}

const RECIPIENTS = 4;

async function json<T>(response: Response): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** An email request of the subscriber's, shared and live: a recipient ready to post positions. */
async function liveRecipient(url: string, session: string, email: string) {
  const { request } = await json<{ request: { id: string } }>(
    await fetch(`${url}/api/v1/requests/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: session },
      body: JSON.stringify({ email, templateId: 'check-in', note: '', locale: 'en' }),
    }),
  );
  const [message] = await outboxMessages(url, email);
  const token = /enter-link\?token=([\w-]+)/.exec(message?.bodyText ?? '')?.[1];
  if (!token) throw new Error('the message carries no consent link');
  const share = (action: string, body: object) =>
    fetch(`${url}/api/v1/share/links/${token}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await json(await share('/consent', {}));
  await json(await share('/live', { minutes: 15 }));
  return { id: request.id, share };
}

for (const driver of ['pglite', 'postgres'] as const) {
  test(`[${driver}] kill -9 while recipients send positions: every acknowledged position is there after a restart`, async () => {
    test.setTimeout(120_000);
    const cluster = driver === 'postgres' ? await startThrowawayCluster() : undefined;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-crash-'));
    // The run's migrated database, as startKabari copies it: a first start's initdb and migrations are seconds of CPU.
    const template = process.env.KABARI_E2E_PGLITE_TEMPLATE;
    if (driver === 'pglite' && template) fs.cpSync(template, path.join(dataDir, 'pglite'), { recursive: true });
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      DATA_DIR: dataDir,
      DEV_TOOLS_TOKEN: devToolsToken,
      ...(cluster ? { DATABASE_URL: cluster.url } : {}),
    };
    let app: Process = startNode(['server/dist/server.js'], env);
    try {
      await waitForApp(app, port);
      const subscriber = await signUpSubscriber(url);
      const links = [];
      for (let index = 0; index < RECIPIENTS; index += 1) {
        links.push(await liveRecipient(url, subscriber.token, `recipient-${index + 1}@example.com`));
      }

      // Each recipient posts one position after another, as fast as the server answers, until the server dies.
      const acknowledged: Acknowledged[] = [];
      let killed = false;
      const senders = links.map(async (link, index) => {
        for (let sent = 1; !killed; sent += 1) {
          const position = { latitude: -6.2 + index * 0.01 + sent * 0.0001, longitude: 106.8 + sent * 0.0001 };
          try {
            const response = await link.share('/positions', {
              ...position,
              accuracy: 10,
              recordedAt: new Date().toISOString(),
            });
            const body = (await response.json()) as { data?: { accepted?: boolean } };
            if (response.status === 200 && body.data?.accepted) acknowledged.push({ requestId: link.id, ...position });
          } catch {
            // The server died with this request in flight: it was never acknowledged.
          }
        }
      });
      await expect.poll(() => acknowledged.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(40);
      const exited = new Promise<NodeJS.Signals | null>((resolve) =>
        app.child.once('exit', (_code, signal) => resolve(signal)),
      );
      app.child.kill('SIGKILL');
      killed = true;
      expect(await exited).toBe('SIGKILL');
      await senders;

      const killedPid = app.child.pid;
      app = startNode(['server/dist/server.js'], env);
      await waitForApp(app, port);
      // On PGlite the new process takes the killed one's lock on DATA_DIR over at once, without waiting for it to
      // go stale.
      if (driver === 'pglite') expect(app.output()).toContain(`locked by process ${killedPid}, which has ended`);
      for (const link of links) {
        const { items } = await json<{ items: { latitude: number; longitude: number }[] }>(
          await fetch(`${url}/api/v1/requests/${link.id}/positions`, { headers: { authorization: subscriber.token } }),
        );
        const stored = new Set(items.map((item) => `${item.latitude},${item.longitude}`));
        const lost = acknowledged
          .filter((position) => position.requestId === link.id)
          .filter((position) => !stored.has(`${position.latitude},${position.longitude}`));
        expect(lost, `acknowledged positions of request ${link.id} missing after the restart`).toEqual([]);
      }
    } finally {
      await app.stop();
      cluster?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

test('PostgreSQL stops under load and comes back: 503 to try again and readiness down meanwhile, then the app recovers by itself', async () => {
  test.setTimeout(120_000);
  // Crashed below: it must keep what it acknowledged, as a deployment's PostgreSQL does.
  const cluster = await startThrowawayCluster({ durable: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-outage-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = startNode(['server/dist/server.js'], {
    PORT: String(port),
    DATA_DIR: dataDir,
    DEV_TOOLS_TOKEN: devToolsToken,
    DATABASE_URL: cluster.url,
  });
  try {
    await waitForApp(app, port);
    const subscriber = await signUpSubscriber(url);
    const history = () =>
      fetch(`${url}/api/v1/requests`, { headers: { authorization: subscriber.token } }).then((r) => r.status);
    const ready = () => fetch(`${url}/readyz`).then((r) => r.status);
    expect(await ready()).toBe(200);

    // Load throughout: the requester's history, read back to back by four clients.
    let loading = true;
    const answers: number[] = [];
    const load = Array.from({ length: 4 }, async () => {
      while (loading) answers.push(await history().catch(() => 0));
    });
    await expect.poll(() => answers.length).toBeGreaterThan(20);

    cluster.stopServer();
    await expect.poll(ready, { timeout: 20_000 }).toBe(503);
    // The process stays up (liveness), and says the database is gone without leaking why.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const during = await fetch(`${url}/api/v1/requests`, { headers: { authorization: subscriber.token } });
    // A moment's outage, to try again shortly: not a server failure, and nothing about why.
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('5');
    const refusal = await during.text();
    expect(JSON.parse(refusal).message).toBe('Kabari is unavailable for a moment. Please try again in a few seconds.');
    expect(refusal).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);

    cluster.startServer();
    await expect.poll(ready, { timeout: 30_000 }).toBe(200);
    await expect.poll(history, { timeout: 30_000 }).toBe(200);
    loading = false;
    await Promise.all(load);
    // It recovered without a restart of its own, and the load went on being answered once it had.
    expect(app.child.exitCode).toBeNull();
    expect(answers.at(-1)).toBe(200);
    // A write too: a trackable link.
    const link = await fetch(`${url}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: subscriber.token },
      body: JSON.stringify({ title: 'After the outage', locale: 'en' }),
    });
    expect(link.status).toBe(200);
  } finally {
    await app.stop();
    cluster.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
