import { readFileSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { strFromU8, unzipSync } from 'fflate';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { abuseReports, locationRequests } from '../../../src/db/schema/location-requests';
import { users } from '../../../src/db/schema/accounts';
import { abuseReportNotes, voiceNoteAudio, voiceNotes } from '../../../src/db/schema/voice-notes';
import { pruneExpiredData } from '../../../src/retention/retention-job';
import { checkVoiceAudio } from '../../../src/voice/audio-check';
import { VOICE_NOTE_MAX_BYTES } from '../../../src/db/voice-note-limits';
import { VOICE_NOTES_PER_DAY } from '../../../src/voice/voice-notes';
import { sendDay } from '../../../src/requests/daily-send-counts';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest } from '../../support/share-fixtures';
import { createRequester, type TestRequester } from '../../support/subscriber-fixture';
import { buildTestApp, type TestApp } from '../../support/test-app';
import { trackKinds, voiceAudio } from '../../support/voice-audio';

const ID = { 'accept-language': 'id' };

describeEachDatabase('voice notes', (driver) => {
  let testApp: TestApp;
  let sari: TestRequester;
  let budi: TestRequester;
  let address = 0;

  beforeAll(async () => {
    testApp = await buildTestApp(driver, { RENEWAL_INTERVAL_SECONDS: '0' });
    sari = await createRequester(testApp.app, { displayName: 'Sari' });
    budi = await createRequester(testApp.app, { displayName: 'Budi' });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  // Each call from its own address, so the per-address throttles stay out of the way.
  const inject = (options: InjectOptions) => {
    address += 1;
    return testApp.app.inject({ remoteAddress: `198.51.100.${address % 250}`, ...options });
  };
  const upload = (body: Buffer, headers: Record<string, string> = {}, who: TestRequester = sari) =>
    inject({
      method: 'POST',
      url: '/api/v1/voice-notes',
      headers: { ...who.headers, 'content-type': 'audio/webm', ...headers },
      payload: body,
    });
  const storedNotes = async () => Number((await testApp.app.db.$count(voiceNotes)) ?? 0);
  const newLink = async (voiceNote?: { id: string; text?: string }, who: TestRequester = sari) => {
    // One new link per requester every 3 hours: each test's link starts from a fresh slot.
    await testApp.app.db.execute(sql`delete from send_limits`);
    const response = await inject({
      method: 'POST',
      url: '/api/v1/links',
      headers: who.headers,
      payload: { title: 'Mum', locale: 'en', ...(voiceNote ? { voiceNote } : {}) },
    });
    return response;
  };
  const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? url.split('/').at(-1)!;

  it('takes a recording, reads its format and length from the bytes, and plays it back to its owner only', async () => {
    const recorded = await voiceAudio(3, 'webm');
    const response = await upload(recorded, { 'content-type': 'application/octet-stream' });
    expect(response.statusCode).toBe(200);
    const { voiceNote } = response.json().data;
    expect(voiceNote).toMatchObject({ mediaType: 'audio/webm', text: null });
    expect(Math.abs(voiceNote.durationMs - 3000)).toBeLessThan(500);

    const whole = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceNote.id}/audio`,
      headers: sari.headers,
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers).toMatchObject({
      'content-type': 'audio/webm',
      'accept-ranges': 'bytes',
      'cache-control': 'private, no-cache',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(Number(whole.headers['content-length'])).toBe(whole.rawPayload.length);
    // What is served is itself a voice note of the same length: the rewritten file states it.
    const served = await checkVoiceAudio(whole.rawPayload);
    expect(served.ok && Math.abs(served.audio.durationMs - voiceNote.durationMs)).toBeLessThan(50);

    const part = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceNote.id}/audio`,
      headers: { ...sari.headers, range: 'bytes=10-109' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${whole.rawPayload.length}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(10, 110));

    const outside = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceNote.id}/audio`,
      headers: { ...sari.headers, range: `bytes=${whole.rawPayload.length + 10}-` },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${whole.rawPayload.length}`);

    const stranger = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceNote.id}/audio`,
      headers: budi.headers,
    });
    expect(stranger.statusCode).toBe(404);
    const nobody = await inject({ method: 'GET', url: `/api/v1/voice-notes/${voiceNote.id}/audio` });
    expect(nobody.statusCode).toBe(401);
  });

  it('takes Ogg and MP4 too, whatever the upload calls itself', async () => {
    for (const [container, mediaType] of [
      ['ogg', 'audio/ogg'],
      ['mp4', 'audio/mp4'],
    ] as const) {
      const response = await upload(await voiceAudio(2, container), { 'content-type': 'text/plain' });
      expect([container, response.statusCode, response.json().data?.voiceNote.mediaType]).toEqual([
        container,
        200,
        mediaType,
      ]);
    }
  });

  it('refuses what is not a voice note, with the reason in both languages, and stores nothing', async () => {
    const before = await storedNotes();
    const film = await voiceAudio(2, 'webm', { withVideo: true });
    expect(await trackKinds(film)).toEqual(['audio', 'video']);
    const picture = readFileSync(path.join(__dirname, '../../../../host/static/icons/kabari-192.png'));
    const cases: [string, Buffer, Record<string, string>, number, RegExp][] = [
      ['empty', Buffer.alloc(0), {}, 400, /empty/],
      ['text', Buffer.from('hello, this is not audio'), {}, 400, /not a voice message/],
      // A picture named and typed as a recording: the bytes decide.
      [
        'picture as audio',
        picture,
        { 'content-type': 'audio/webm', 'content-disposition': 'attachment; filename="note.webm"' },
        400,
        /not a voice message/,
      ],
      ['too long', await voiceAudio(61, 'ogg'), {}, 400, /at most 60 seconds/],
      ['a film', film, {}, 400, /not a voice message/],
      ['too big', Buffer.alloc(VOICE_NOTE_MAX_BYTES + 1, 1), {}, 413, /at most 1 MB/],
      ['cut off', (await voiceAudio(3, 'mp4')).subarray(0, 200), {}, 400, /not a voice message/],
    ];
    for (const [name, body, headers, status, message] of cases) {
      const response = await upload(body, headers);
      expect([name, response.statusCode]).toEqual([name, status]);
      expect([name, response.json().message]).toEqual([name, expect.stringMatching(message)]);
    }
    const indonesian = await upload(await voiceAudio(61, 'webm'), ID);
    expect(indonesian.json().message).toBe('Pesan suara terlalu panjang: paling lama 60 detik.');
    expect(await storedNotes()).toBe(before);
  });

  it('refuses a recording to nobody signed in and to a subscription that has expired', async () => {
    const lapsed = await createRequester(testApp.app, {
      subscription: { status: 'expired', validUntil: new Date(Date.now() - 24 * 60 * 60 * 1000) },
    });
    const recorded = await voiceAudio(1, 'webm');
    expect((await inject({ method: 'POST', url: '/api/v1/voice-notes', payload: recorded })).statusCode).toBe(401);
    expect((await upload(recorded, {}, lapsed)).statusCode).toBe(403);
  });

  it('keeps at most the day’s number of notes per account, counted in the database', async () => {
    await testApp.app.db.execute(
      sql`insert into daily_send_counts (key, day, count) values (${`voice:account:${budi.userId}`}, ${sendDay()}::date, ${VOICE_NOTES_PER_DAY})`,
    );
    const refused = await upload(await voiceAudio(1, 'webm'), {}, budi);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(`You have recorded ${VOICE_NOTES_PER_DAY} voice messages today`);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('sends a note with a link: the recipient hears it and its text, and playing it records nothing', async () => {
    const { voiceNote } = (await upload(await voiceAudio(4, 'webm'))).json().data;
    const created = await newLink({ id: voiceNote.id, text: '  It is me, Sari. ' });
    expect(created.statusCode).toBe(200);
    const { request } = created.json().data;
    expect(request.voiceNote).toMatchObject({ id: voiceNote.id, text: 'It is me, Sari.' });
    expect(request.voiceReply).toBeNull();
    const token = tokenOf(request.url);

    // The audio first: the link is not marked opened by it.
    const audio = await inject({ method: 'GET', url: `/api/v1/share/links/${token}/voice-note` });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/webm');
    const [row] = await testApp.app.db.select().from(locationRequests).where(eq(locationRequests.id, request.id));
    expect(row?.openedAt).toBeNull();

    const page = await inject({ method: 'GET', url: `/api/v1/share/links/${token}` });
    expect(page.json().data.voiceNote).toEqual({ durationMs: voiceNote.durationMs, text: 'It is me, Sari.' });

    // A sent note stays with its request.
    const remove = await inject({
      method: 'POST',
      url: `/api/v1/voice-notes/${voiceNote.id}/remove`,
      headers: sari.headers,
    });
    expect(remove.statusCode).toBe(409);
    // Cancelled, the link plays nothing more.
    await inject({ method: 'POST', url: `/api/v1/links/${request.id}/cancel`, headers: sari.headers });
    expect((await inject({ method: 'GET', url: `/api/v1/share/links/${token}/voice-note` })).statusCode).toBe(409);
    expect((await inject({ method: 'GET', url: `/api/v1/share/links/${token}` })).json().data.voiceNote).toBeNull();
    expect(
      (await inject({ method: 'GET', url: '/api/v1/share/links/never-given-to-anyone-0000/voice-note' })).statusCode,
    ).toBe(404);
  });

  it('plays nothing through a link that expired unanswered, nor a reply taken through it', async () => {
    const { voiceNote } = (await upload(await voiceAudio(1, 'webm'))).json().data;
    const expired = await insertRequest(testApp.app.db, sari.userId, {
      expiresAt: new Date(Date.now() - 60_000),
    });
    await testApp.app.db.update(voiceNotes).set({ requestId: expired.id }).where(eq(voiceNotes.id, voiceNote.id));
    const note = await inject({ method: 'GET', url: `/api/v1/share/links/${expired.token}/voice-note` });
    expect(note.statusCode).toBe(409);
    expect(note.headers['content-type']).toMatch(/^application\/json/);
    const reply = await inject({
      method: 'POST',
      url: `/api/v1/share/links/${expired.token}/voice-reply`,
      payload: await voiceAudio(1, 'ogg'),
    });
    expect(reply.statusCode).toBe(409);
    expect((await inject({ method: 'GET', url: `/api/v1/share/links/${expired.token}` })).json().data).toMatchObject({
      state: 'expired',
      voiceNote: null,
    });
  });

  it("refuses another account's note, or one already sent, and then creates no request", async () => {
    const { voiceNote } = (await upload(await voiceAudio(1, 'webm'), {}, sari)).json().data;
    const before = await testApp.app.db.$count(locationRequests, eq(locationRequests.userId, budi.userId));
    const refused = await newLink({ id: voiceNote.id }, budi);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The voice message was not found: please record it again.');
    expect(await testApp.app.db.$count(locationRequests, eq(locationRequests.userId, budi.userId))).toBe(before);

    const mine = await newLink({ id: voiceNote.id });
    expect(mine.statusCode).toBe(200);
    expect((await newLink({ id: voiceNote.id })).statusCode).toBe(400);
  });

  it('refuses a text beside the note that carries a link or a phone number, and creates no request', async () => {
    const { voiceNote } = (await upload(await voiceAudio(1, 'webm'))).json().data;
    const before = await testApp.app.db.$count(locationRequests, eq(locationRequests.userId, sari.userId));
    const byLink = await newLink({ id: voiceNote.id, text: 'Rekening diblokir, buka bca-verify.top' });
    expect(byLink.statusCode).toBe(400);
    expect(byLink.json().message).toContain('The text with the voice message cannot contain links or email addresses.');
    for (const text of ['BCA: rekening diblokir, hubungi 0812 3456 7890', 'WA +62 812-3456-7890']) {
      const byPhone = await newLink({ id: voiceNote.id, text });
      expect(byPhone.statusCode).toBe(400);
      expect(byPhone.json().message).toContain('The text with the voice message cannot contain phone numbers.');
    }
    await testApp.app.db.execute(sql`delete from send_limits`);
    const inIndonesian = await inject({
      method: 'POST',
      url: '/api/v1/requests/email',
      headers: { ...sari.headers, ...ID },
      payload: {
        email: 'ibu@example.com',
        templateId: 'check-in',
        locale: 'id',
        voiceNote: { id: voiceNote.id, text: 'Telepon aku di 0812-3456-7890' },
      },
    });
    expect(inIndonesian.statusCode).toBe(400);
    expect(inIndonesian.json().message).toContain('Teks pesan suara tidak boleh berisi nomor telepon.');
    expect(await testApp.app.db.$count(locationRequests, eq(locationRequests.userId, sari.userId))).toBe(before);

    // Ordinary words, a time and a year go through.
    const sent = await newLink({ id: voiceNote.id, text: "Mum, it's 5 pm: see you at 17.30. Happy 2025!" });
    expect(sent.statusCode).toBe(200);
  });

  it("is in the account's data export, each note as an audio file beside the document", async () => {
    const exporter = await createRequester(testApp.app, { displayName: 'Wati' });
    const { voiceNote } = (await upload(await voiceAudio(2, 'mp4'), {}, exporter)).json().data;
    await newLink({ id: voiceNote.id, text: 'Halo' }, exporter);
    const response = await inject({
      method: 'GET',
      url: '/api/v1/personnal/account/export',
      headers: exporter.headers,
    });
    expect(response.headers['content-type']).toBe('application/zip');
    const files = unzipSync(response.rawPayload);
    const document = JSON.parse(strFromU8(files['kabari-my-data.json']!));
    expect(document.voiceNotes).toEqual([
      expect.objectContaining({ id: voiceNote.id, kind: 'request', text: 'Halo', mediaType: 'audio/mp4' }),
    ]);
    const file = document.voiceNotes[0].file as string;
    expect(file).toMatch(/^voice-notes\/\d{4}-\d{2}-\d{2}-request-[0-9a-f-]+\.m4a$/);
    const heard = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceNote.id}/audio`,
      headers: exporter.headers,
    });
    expect(Buffer.from(files[file]!)).toEqual(heard.rawPayload);
  });

  it('removes a draft of its owner only', async () => {
    const { voiceNote } = (await upload(await voiceAudio(1, 'webm'))).json().data;
    const url = `/api/v1/voice-notes/${voiceNote.id}/remove`;
    expect((await inject({ method: 'POST', url, headers: budi.headers })).statusCode).toBe(404);
    expect((await inject({ method: 'POST', url, headers: sari.headers })).json().data).toEqual({ removed: true });
    const [audio] = await testApp.app.db
      .select()
      .from(voiceNoteAudio)
      .where(eq(voiceNoteAudio.voiceNoteId, voiceNote.id));
    expect(audio).toBeUndefined();
  });

  it('takes a voice reply only while the recipient shares; Stop and erase erases it', async () => {
    const { request } = (await newLink()).json().data;
    const token = tokenOf(request.url);
    const reply = () =>
      inject({
        method: 'POST',
        url: `/api/v1/share/links/${token}/voice-reply`,
        headers: { 'content-type': 'audio/ogg' },
        payload: readyReply,
      });
    const readyReply = await voiceAudio(2, 'ogg');
    const early = await reply();
    expect(early.statusCode).toBe(409);
    expect(await testApp.app.db.$count(voiceNotes, eq(voiceNotes.requestId, request.id))).toBe(0);

    await inject({ method: 'POST', url: `/api/v1/share/links/${token}/consent` });
    const sent = await reply();
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.voiceReply.durationMs).toBe(2000);
    // A second reply replaces the first.
    expect((await reply()).statusCode).toBe(200);
    expect(await testApp.app.db.$count(voiceNotes, eq(voiceNotes.requestId, request.id))).toBe(1);

    const history = await inject({ method: 'GET', url: '/api/v1/requests?pageSize=50', headers: sari.headers });
    const { voiceReply } = history.json().data.items.find((item: { id: string }) => item.id === request.id);
    expect(voiceReply).toMatchObject({ durationMs: 2000, mediaType: 'audio/ogg', text: null });
    const heard = await inject({
      method: 'GET',
      url: `/api/v1/voice-notes/${voiceReply.id}/audio`,
      headers: sari.headers,
    });
    expect([heard.statusCode, heard.headers['content-type']]).toEqual([200, 'audio/ogg']);
    expect(
      (await inject({ method: 'GET', url: `/api/v1/voice-notes/${voiceReply.id}/audio`, headers: budi.headers }))
        .statusCode,
    ).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/v1/share/links/${token}/voice-reply` })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/v1/share/links/${token}` })).json().data.voiceReply).toMatchObject(
      { durationMs: 2000 },
    );

    await inject({ method: 'POST', url: `/api/v1/share/links/${token}/withdraw` });
    expect(await testApp.app.db.$count(voiceNotes, eq(voiceNotes.requestId, request.id))).toBe(0);
    expect(
      (await inject({ method: 'GET', url: `/api/v1/voice-notes/${voiceReply.id}/audio`, headers: sari.headers }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps the note with an abuse report, after the request and the account are deleted', async () => {
    const reporter = await createRequester(testApp.app, { displayName: 'Rudi' });
    const { voiceNote } = (await upload(await voiceAudio(3, 'mp4'), {}, reporter)).json().data;
    const { request } = (await newLink({ id: voiceNote.id, text: 'Ini aku' }, reporter)).json().data;
    const token = tokenOf(request.url);
    const reported = await inject({
      method: 'POST',
      url: `/api/v1/share/links/${token}/report`,
      payload: { reason: 'stalking' },
    });
    expect(reported.statusCode).toBe(200);
    const reportId = reported.json().data.id;

    await testApp.app.db.delete(users).where(eq(users.id, reporter.userId));
    expect(await testApp.app.db.$count(voiceNotes, eq(voiceNotes.userId, reporter.userId))).toBe(0);
    const [cited] = await testApp.app.db.select().from(abuseReportNotes).where(eq(abuseReportNotes.reportId, reportId));
    const [copy] = await testApp.app.db
      .select()
      .from(voiceNotes)
      .where(and(eq(voiceNotes.id, cited!.voiceNoteId), eq(voiceNotes.kind, 'report')));
    expect(copy).toMatchObject({
      mediaType: 'audio/mp4',
      durationMs: voiceNote.durationMs,
      text: 'Ini aku',
      userId: null,
    });
    const [audio] = await testApp.app.db.select().from(voiceNoteAudio).where(eq(voiceNoteAudio.voiceNoteId, copy!.id));
    expect(audio?.bytes.length).toBe(copy!.byteSize);
    // It goes once no report cites it.
    await testApp.app.db.delete(abuseReports).where(eq(abuseReports.id, reportId));
    await pruneExpiredData(testApp.app.db, 30);
    expect(await testApp.app.db.$count(voiceNotes, eq(voiceNotes.id, copy!.id))).toBe(0);
  });

  it('deletes drafts never sent after a day, and notes and replies after the retention period', async () => {
    const draft = (await upload(await voiceAudio(1, 'webm'))).json().data.voiceNote;
    const fresh = (await upload(await voiceAudio(1, 'webm'))).json().data.voiceNote;
    const sentNote = (await upload(await voiceAudio(1, 'webm'))).json().data.voiceNote;
    await newLink({ id: sentNote.id });
    await testApp.app.db.execute(
      sql`update voice_notes set created_at = now() - interval '25 hours' where id in (${draft.id}, ${sentNote.id})`,
    );
    const result = await pruneExpiredData(testApp.app.db, 30);
    expect(result.voiceNotes).toBe(1);
    const left = (await testApp.app.db.select({ id: voiceNotes.id }).from(voiceNotes)).map((row) => row.id);
    expect(left).toEqual(expect.arrayContaining([fresh.id, sentNote.id]));
    expect(left).not.toContain(draft.id);
    await testApp.app.db.execute(
      sql`update voice_notes set created_at = now() - interval '31 days' where id = ${sentNote.id}`,
    );
    expect((await pruneExpiredData(testApp.app.db, 30)).voiceNotes).toBe(1);
  });
});
