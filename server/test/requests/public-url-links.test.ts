import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/accounts';
import { outboxMessages } from '../../src/db/schema/outbox';
import { tokenFromMessage } from '../support/request-token';
import { createRequester } from '../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../support/test-app';

// What a hostile caller (or a proxy passing the client's headers on) would put in the request.
const FORGED = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'http',
  forwarded: 'host=evil.example;proto=http',
};

async function messagesTo(testApp: TestApp, recipient: string) {
  return testApp.app.db.select().from(outboxMessages).where(eq(outboxMessages.recipient, recipient));
}

/** A trackable link, an SMS request and a reset code, each asked for with forged host headers. */
async function linksMadeFor(testApp: TestApp, number: string) {
  const requester = await createRequester(testApp.app, { displayName: 'Sari' });
  const headers = { ...requester.headers, ...FORGED };
  const link = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/links',
    headers,
    payload: { title: 'Family', locale: 'en' },
  });
  expect(link.statusCode).toBe(200);
  const sms = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/requests/sms',
    headers,
    payload: { number, templateId: 'check-in', note: 'Are you home yet?', locale: 'id' },
  });
  expect(sms.statusCode).toBe(200);
  const [user] = await testApp.app.db.select().from(users).where(eq(users.id, requester.userId));
  const reset = await testApp.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sendCode',
    headers: FORGED,
    payload: { email: user!.email, type: 1 },
  });
  expect(reset.statusCode).toBe(200);
  return {
    linkUrl: link.json().data.request.url as string,
    smsText: (await messagesTo(testApp, number))[0]!.bodyText,
    smsToken: await tokenFromMessage(testApp.app.db, sms.json().data.request.id),
    resetText: (await messagesTo(testApp, user!.email))[0]!.bodyText,
  };
}

describe('absolute links in messages come from configuration, never from the request', () => {
  it('a local trial: http://localhost:PORT, whatever the Host header says', async () => {
    const trial = await buildTestApp('pglite', { PORT: '8181' });
    try {
      const made = await linksMadeFor(trial, '+6281234500001');
      expect(made.linkUrl).toMatch(/^http:\/\/localhost:8181\/enter-link\?token=/);
      expect(made.smsText).toContain(`http://localhost:8181/id/enter-link?token=${made.smsToken}`);
      // The reset email says where the code belongs.
      expect(made.resetText).toContain('Enter it only on Kabari, at this address:\nhttp://localhost:8181/\n');
      for (const text of [made.linkUrl, made.smsText, made.resetText]) expect(text).not.toContain('evil');
    } finally {
      await trial.close();
    }
  }, 60_000);

  it('a deployment: PUBLIC_URL, even behind a trusted proxy that passes X-Forwarded-Host on', async () => {
    const deployed = await buildTestApp('pglite', {
      PUBLIC_URL: 'https://kabari.example.com/',
      TRUST_PROXY: '127.0.0.1',
    });
    try {
      const made = await linksMadeFor(deployed, '+6281234500002');
      expect(made.linkUrl).toMatch(/^https:\/\/kabari\.example\.com\/enter-link\?token=/);
      expect(made.smsText).toContain(`https://kabari.example.com/id/enter-link?token=${made.smsToken}`);
      expect(made.resetText).toContain('https://kabari.example.com/\n');
      for (const text of [made.linkUrl, made.smsText, made.resetText]) expect(text).not.toContain('evil');
    } finally {
      await deployed.close();
    }
  }, 60_000);
});
