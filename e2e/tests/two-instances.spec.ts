import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect } from '../support/fixtures';
import {
  adaptNginxSite,
  freePort,
  httpsRequest,
  openEventStream,
  readDeployDoc,
  startNginx,
  startNode,
  waitForApp,
  type Nginx,
  type Process,
} from '../support/deployment';
import { selfSignedCertificate } from '../../server/test/support/self-signed-certificate';
import { signUpSubscriber } from '../support/subscriber';
import { startThrowawayCluster, type ThrowawayCluster } from '../../server/test/support/postgres-cluster';

// docs/deploy.md's "More than one instance": two instances on one PostgreSQL, listed in an nginx upstream used by
// the documented site. The instance holding a requester's live stream dies (SIGKILL); the stream reconnects through
// nginx with Last-Event-ID, lands on the other instance, and gets every position posted meanwhile, once.

test('two instances behind nginx: a live stream survives the loss of its instance, missing no position', async () => {
  test.setTimeout(180_000);
  const doc = readDeployDoc();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'kabari-two-'));
  fs.chmodSync(folder, 0o755);
  const certificate = selfSignedCertificate(folder);
  const ports = { http: await freePort(), https: await freePort(), a: await freePort(), b: await freePort() };
  const publicUrl = `https://localhost:${ports.https}`;
  // One secret for both, as one environment file would give them.
  const secret = randomBytes(32).toString('hex');
  let cluster: ThrowawayCluster | undefined;
  let nginx: Nginx | undefined;
  const instances: Process[] = [];
  const start = async (port: number) => {
    const instance = startNode(doc.execStart.slice(1), {
      ...doc.environment,
      PUBLIC_URL: publicUrl,
      PORT: String(port),
      DATABASE_URL: cluster!.url,
      AUTH_SECRET: secret,
      SMTP_URL: '',
      PAYMENTS_SANDBOX: 'true',
    });
    instances.push(instance);
    await waitForApp(instance, port);
    return instance;
  };
  try {
    cluster = await startThrowawayCluster();
    const first = await start(ports.a);
    const webroot = path.join(folder, 'www');
    fs.mkdirSync(webroot);
    const site = adaptNginxSite(doc.nginxSite, { ...ports, app: ports.a }, { ...certificate, webroot })
      .split(`http://127.0.0.1:${ports.a}`)
      .join('http://kabari_instances');
    const upstream = `upstream kabari_instances {\n  server 127.0.0.1:${ports.a};\n  server 127.0.0.1:${ports.b};\n}\n`;
    nginx = await startNginx(folder, upstream + site, ports.https);
    const viaNginx = (pathname: string, body?: object, headers: Record<string, string> = {}) =>
      httpsRequest(`${publicUrl}${pathname}`, certificate.pem, {
        method: body ? 'POST' : 'GET',
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });

    const subscriber = await signUpSubscriber(`http://127.0.0.1:${ports.a}`);
    const auth = { authorization: subscriber.token };
    // Opened while only the first instance runs: the stream is the first instance's.
    const before = await openEventStream(`${publicUrl}/api/v1/locate/events`, certificate.pem, auth);
    await before.next((event) => event.event === 'ready', 10_000);
    await start(ports.b);

    const created = await viaNginx('/api/v1/links', { title: 'Family', locale: 'en' }, auth);
    expect(created.status, created.body).toBe(200);
    const token = new URL(JSON.parse(created.body).data.request.url as string).searchParams.get('token')!;
    const share = (action: string, body: object) => viaNginx(`/api/v1/share/links/${token}${action}`, body);
    expect((await share('/consent', {})).status).toBe(200);
    expect((await share('/live', { minutes: 15 })).status).toBe(200);

    const acknowledged: string[] = [];
    const post = async (count: number) => {
      for (let index = 0; index < count; index += 1) {
        const latitude = -6.2 + acknowledged.length * 0.0001;
        const answer = await share('/positions', {
          latitude,
          longitude: 106.8,
          accuracy: 10,
          recordedAt: new Date().toISOString(),
        });
        expect(answer.status, answer.body).toBe(200);
        expect(JSON.parse(answer.body).data.accepted).toBe(true);
        acknowledged.push(latitude.toFixed(4));
      }
    };
    const positionsIn = (events: { event: string; data: string }[]) =>
      events
        .filter((event) => event.event === 'position')
        .map((event) => Number((JSON.parse(event.data) as { position: { latitude: number } }).position.latitude))
        .map((latitude) => latitude.toFixed(4));

    await post(5);
    await expect.poll(() => positionsIn(before.received())).toEqual(acknowledged);

    // The stream's instance dies; positions go on through nginx to the other one meanwhile.
    const died = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await died;
    await post(5);
    const lastEventId = before.received().at(-1)!.id;
    before.close();

    const after = await openEventStream(`${publicUrl}/api/v1/locate/events`, certificate.pem, {
      ...auth,
      'last-event-id': lastEventId,
    });
    expect(after.status).toBe(200);
    await expect.poll(() => positionsIn(after.received())).toEqual(acknowledged.slice(5));
    after.close();
    // Nothing twice, nothing missing, in order.
    expect([...positionsIn(before.received()), ...positionsIn(after.received())]).toEqual(acknowledged);
    expect(nginx.errorLog()).not.toMatch(/\[(crit|alert|emerg)\]/);
  } finally {
    await nginx?.stop();
    for (const instance of instances) await instance.stop();
    cluster?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
