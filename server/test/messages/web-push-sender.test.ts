import { eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../src/db/schema/accounts';
import { PermanentDeliveryError, type MessageSender } from '../../src/messages/message-sender';
import { createWebPushSender, loadVapidKeys, type WebPushOptions } from '../../src/messages/web-push-sender';
import { startPushService, type TestPushService } from '../support/push-service';
import { createRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';

// The request a push message makes goes to an address a browser (so any signed-in account) gave: it must reach a
// public address only, the one that was checked, end by a deadline, and read no more of the answer than it needs.

describe('Web Push sender', () => {
  let testApp: TestApp;
  let pushService: TestPushService;

  beforeAll(async () => {
    pushService = await startPushService();
    testApp = await buildTestApp('pglite');
  });

  afterAll(async () => {
    await testApp?.close();
    await pushService?.close();
  });

  async function senderFor(options: Partial<WebPushOptions>): Promise<MessageSender> {
    const db = testApp.app.db;
    const keys = await loadVapidKeys(db, undefined);
    return createWebPushSender(
      db,
      { ...keys, subject: 'mailto:ops@kabari.example' },
      { deadlineMs: 5_000, agent: pushService.agent, addressPolicy: { allowLoopback: true }, ...options },
    );
  }

  /** A browser's subscription stored as it was before endpoints were checked; answers its id. */
  async function storedSubscription(endpoint: string, keys: { p256dh: string; auth: string }): Promise<string> {
    const owner = await createRequester(testApp.app, { displayName: 'Tono' });
    const [row] = await testApp.app.db
      .insert(pushSubscriptions)
      .values({ userId: owner.userId, endpoint, ...keys })
      .returning({ id: pushSubscriptions.id });
    return row!.id;
  }

  const message = (to: string) => ({ id: crypto.randomUUID(), to, text: '{"title":"Hi"}' });
  const rowsOf = (id: string) => testApp.app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));

  it('sends nothing to a stored endpoint on this machine unless allowed, and forgets that subscription', async () => {
    const { subscription } = pushService.browser('stored-before-checks');
    const id = await storedSubscription(subscription.endpoint, subscription.keys);
    const strict = await senderFor({ addressPolicy: {} });

    const refused = strict.send(message(id));
    await expect(refused).rejects.toThrow(PermanentDeliveryError);
    await expect(refused).rejects.toThrow('The push endpoint is not on the public internet');
    expect(pushService.received.filter((push) => push.browser === 'stored-before-checks')).toHaveLength(0);
    expect(await rowsOf(id)).toHaveLength(0);
  });

  it('connects to the address the name was checked to have, not to what a second lookup says', async () => {
    const { subscription } = pushService.browser('pinned');
    const endpoint = subscription.endpoint.replace('127.0.0.1', 'localhost');
    const id = await storedSubscription(endpoint, subscription.keys);
    // The name's first answer is checked; a second one would point elsewhere (nothing listens on 127.0.0.2 there).
    const lookups: string[] = [];
    const sender = await senderFor({
      lookup: async (host) => {
        lookups.push(host);
        return [{ address: lookups.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      },
    });

    await expect(sender.send(message(id))).resolves.toEqual({ providerRef: expect.stringMatching(/^\/messages\//) });
    expect(lookups).toEqual(['localhost']);
    expect(pushService.received.filter((push) => push.browser === 'pinned')).toHaveLength(1);
  });

  it('gives up on a push service that trickles its answer, at the deadline, for a retry later', async () => {
    const { subscription } = pushService.browser('trickling');
    pushService.answer('trickling', 201, 'trickle');
    const id = await storedSubscription(subscription.endpoint, subscription.keys);
    const sender = await senderFor({ deadlineMs: 600 });

    const started = Date.now();
    const sent = sender.send(message(id));
    await expect(sent).rejects.toThrow('The push service did not answer within 600 ms');
    await expect(sent).rejects.not.toThrow(PermanentDeliveryError);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The connection is closed, not left to trickle.
    while (pushService.answering() > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await rowsOf(id)).toHaveLength(1);
  });

  it('reads only the start of an answer without end, and judges the message by its status', async () => {
    const { subscription } = pushService.browser('endless');
    pushService.answer('endless', 400, 'endless');
    const id = await storedSubscription(subscription.endpoint, subscription.keys);
    const sender = await senderFor({ deadlineMs: 4_000 });

    const sent = sender.send(message(id));
    await expect(sent).rejects.toThrow(PermanentDeliveryError);
    const error = (await sent.catch((caught: Error) => caught)) as Error;
    expect(error.message).toMatch(/^The push service refused the message \(400\): x+$/);
    // At most 8 KiB of the answer is kept.
    expect(error.message.length).toBeLessThan(8 * 1024 + 100);
  });

  it('does not follow a redirect to another address', async () => {
    const { subscription } = pushService.browser('redirecting');
    pushService.answer('redirecting', 307);
    const id = await storedSubscription(subscription.endpoint, subscription.keys);
    const sender = await senderFor({});

    await expect(sender.send(message(id))).rejects.toThrow('The push service refused the message (307)');
    expect(pushService.received.filter((push) => push.browser === 'redirecting')).toHaveLength(1);
  });
});
