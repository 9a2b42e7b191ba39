import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';

// The local trial without Twilio: a request by WhatsApp stays in the local outbox, shown as a WhatsApp message with
// its template's variables, and the page's buttons play each receipt, and "no WhatsApp", which sends the SMS instead.

describe('the local outbox: WhatsApp messages (no TWILIO_*)', () => {
  let testApp: TestApp;
  let requester: TestRequester;
  const withToken = (url: string) => `${url}${url.includes('?') ? '&' : '?'}token=${testApp.config.devTools.token}`;

  beforeAll(async () => {
    testApp = await buildTestApp('pglite');
    requester = await createRequester(testApp.app, { displayName: 'Sari' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function askByWhatsApp(number: string) {
    const sent = await testApp.app.inject({
      method: 'POST',
      url: '/api/v1/requests/sms',
      headers: requester.headers,
      payload: { channel: 'whatsapp', number, templateId: 'check-in', locale: 'id', note: 'Sudah sampai?' },
    });
    expect(sent.statusCode).toBe(200);
    return sent.json().data.request.id as string;
  }

  const messagesTo = async (number: string) =>
    (await testApp.app.inject({ url: withToken(`/dev/outbox?recipient=${encodeURIComponent(number)}`) })).json()
      .data as { id: string; channel: string; bodyText: string; receipt: string | null }[];

  const simulate = (id: string, receipt: string) =>
    testApp.app.inject({
      method: 'POST',
      url: withToken(`/dev/outbox/${id}/receipt`),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:8080' },
      payload: `receipt=${receipt}`,
    });

  async function viewOf(requestId: string) {
    const list = await testApp.app.inject({ url: '/api/v1/requests', headers: requester.headers });
    const item = list.json().data.items.find((each: { id: string }) => each.id === requestId);
    return { delivery: item.delivery, deliveryFailure: item.deliveryFailure, whatsapp: item.whatsapp };
  }

  it('shows the message as WhatsApp, with its variables and a button for each receipt', async () => {
    const requestId = await askByWhatsApp('+6281234567901');
    const [message] = await messagesTo('+6281234567901');
    expect(message).toMatchObject({ channel: 'whatsapp', receipt: null });
    const page = await testApp.app.inject({ url: withToken('/dev/outbox?format=html&recipient=%2B6281234567901') });
    expect(page.body).toContain('<h2>WhatsApp</h2>');
    expect(page.body).toContain('whatsapp to <b>+6281234567901</b>');
    expect(page.body).toContain('Approved template (id) with:');
    expect(page.body).toContain('{{1}} Sari');
    expect(page.body).toMatch(/\{\{2\}\} http:\/\/localhost:\d+\/id\/enter-link\?token=[\w-]+/);
    for (const label of [
      'Simulate “sent”',
      'Simulate “delivered”',
      'Simulate “read”',
      'Simulate “failed” (phone unreachable)',
      'Simulate “failed” (no WhatsApp: SMS instead)',
    ]) {
      expect(page.body).toContain(label);
    }
    expect(await viewOf(requestId)).toEqual({
      delivery: 'outbox',
      deliveryFailure: null,
      whatsapp: { fallback: null },
    });

    expect((await simulate(message!.id, 'sent')).statusCode).toBe(303);
    expect((await viewOf(requestId)).delivery).toBe('outbox');
    expect((await messagesTo('+6281234567901'))[0]!.receipt).toBe('sent');
    expect((await simulate(message!.id, 'delivered')).statusCode).toBe(303);
    expect((await viewOf(requestId)).delivery).toBe('delivered');
    expect((await simulate(message!.id, 'read')).statusCode).toBe(303);
    expect((await viewOf(requestId)).delivery).toBe('read');
  });

  it('sends the SMS instead, once, when "no WhatsApp" is simulated, and the history says so', async () => {
    const requestId = await askByWhatsApp('+6281234567902');
    const [whatsApp] = await messagesTo('+6281234567902');
    expect((await simulate(whatsApp!.id, 'no-whatsapp')).statusCode).toBe(303);
    const messages = await messagesTo('+6281234567902');
    expect(messages.map((message) => message.channel)).toEqual(['sms', 'whatsapp']);
    expect(messages[0]!.bodyText).toMatch(
      /^Kabari: Sari ingin melihat lokasi Anda\. Pesan: "Sudah sampai\?" Bagikan atau tolak: http:\/\/localhost:\d+\/id\/enter-link\?token=/,
    );
    expect(await viewOf(requestId)).toEqual({
      delivery: 'outbox',
      deliveryFailure: null,
      whatsapp: { fallback: 'sms' },
    });

    // Again: nothing more is sent. The SMS's own receipts now show.
    await simulate(whatsApp!.id, 'no-whatsapp');
    expect(await messagesTo('+6281234567902')).toHaveLength(2);
    await simulate(messages[0]!.id, 'delivered');
    expect(await viewOf(requestId)).toMatchObject({ delivery: 'delivered', whatsapp: { fallback: 'sms' } });
    // "read" and "no WhatsApp" are for WhatsApp messages; an SMS takes delivered and failed.
    const page = await testApp.app.inject({ url: withToken('/dev/outbox?format=html&recipient=%2B6281234567902') });
    expect(page.body.match(/Simulate “read”/g)).toHaveLength(1);
  });

  it('answers Reply “BERHENTI” on WhatsApp: the number opted out, one confirmation by WhatsApp, shown as its text', async () => {
    const requestId = await askByWhatsApp('+6281234567903');
    const page = await testApp.app.inject({ url: withToken('/dev/outbox?format=html&recipient=%2B6281234567903') });
    expect(page.body).toContain('Reply “BERHENTI”');
    const [whatsApp] = await messagesTo('+6281234567903');
    for (let attempt = 0; attempt < 2; attempt++) {
      const replied = await testApp.app.inject({
        method: 'POST',
        url: withToken(`/dev/outbox/${whatsApp!.id}/reply`),
        payload: {},
      });
      expect(replied.json().data.outcome).toBe(attempt === 0 ? 'opted-out' : 'already-opted-out');
    }
    const messages = await messagesTo('+6281234567903');
    expect(messages.map((message) => message.channel)).toEqual(['whatsapp', 'whatsapp']);
    const after = await testApp.app.inject({ url: withToken('/dev/outbox?format=html&recipient=%2B6281234567903') });
    expect(after.body).toContain('<pre>Kabari: selesai. Nomor ini tidak akan menerima permintaan lokasi lagi');
    const list = await testApp.app.inject({ url: '/api/v1/requests', headers: requester.headers });
    expect(list.json().data.items.find((each: { id: string }) => each.id === requestId).consent).toBe('declined');
  });
});
