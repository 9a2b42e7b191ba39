import { abuseReports, positions } from '../../src/db/schema/location-requests';
import { abuseReportNotes, voiceNoteAudio, voiceNotes } from '../../src/db/schema/voice-notes';
import { ACTIVITY_DAYS, listReports, reportDetail, reportVoiceNoteAudio } from '../../src/safety-desk/reports';
import { describeEachDatabase } from '../support/databases';
import { insertRequest, insertRequester } from '../support/share-fixtures';
import { buildTestApp, type TestApp } from '../support/test-app';

describeEachDatabase('abuse reports for the operator', (driver) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await buildTestApp(driver);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;

  async function report(requestId: string | null, requesterId: string | null, createdAt: Date, details = 'Unknown') {
    const [row] = await db()
      .insert(abuseReports)
      .values({ requestId, requesterId, reason: 'harassment', details, createdAt })
      .returning();
    return row!;
  }

  it('lists open reports newest first, a page at a time, and closed ones apart', async () => {
    const requesterId = await insertRequester(db(), 'Joko');
    const base = Date.now() - 60 * 60_000;
    const made = [];
    for (let index = 0; index < 55; index += 1)
      made.push(await report(null, requesterId, new Date(base + index * 1000)));
    const first = await listReports(db(), 'open', undefined);
    expect(first.reports).toHaveLength(50);
    expect(first.reports[0]).toMatchObject({
      id: made[54]!.id,
      state: 'open',
      outcome: null,
      requester: { id: requesterId, displayName: 'Joko' },
    });
    const second = await listReports(db(), 'open', first.next!);
    const seen = [...first.reports, ...second.reports].map((row) => row.id);
    for (const row of made) expect(seen).toContain(row.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect((await listReports(db(), 'closed', undefined)).reports.map((row) => row.id)).not.toContain(made[0]!.id);
    await expect(listReports(db(), 'open', 'not-a-cursor')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('shows the report, its request with the target masked, the requester’s activity; never a position', async () => {
    const requesterId = await insertRequester(db(), 'Kartika');
    const request = await insertRequest(db(), requesterId, { note: 'Where are you?', consent: 'sharing' });
    await db()
      .insert(positions)
      .values({ requestId: request.id, source: 'gps', latitude: -6.2, longitude: 106.8, recordedAt: new Date() });
    const earlier = await report(null, requesterId, new Date(Date.now() - 86_400_000), 'Earlier');
    const current = await report(request.id, requesterId, new Date(), 'Keeps asking');
    const [note] = await db()
      .insert(voiceNotes)
      .values({ kind: 'report', mediaType: 'audio/webm', durationMs: 1500, byteSize: 6, text: 'Halo' })
      .returning();
    await db()
      .insert(voiceNoteAudio)
      .values({ voiceNoteId: note!.id, bytes: Buffer.from('webm!!') });
    await db().insert(abuseReportNotes).values({ reportId: current.id, voiceNoteId: note!.id });

    const detail = await reportDetail(db(), current.id, { minor: 7, currency: 'USD' });
    expect(detail.report).toMatchObject({
      id: current.id,
      details: 'Keeps asking',
      state: 'open',
      voiceNote: { id: note!.id, durationMs: 1500, text: 'Halo' },
    });
    expect(detail.request).toMatchObject({
      id: request.id,
      channel: 'sms',
      maskedTarget: '+62•••89',
      messageText: 'Where are you?',
      consent: 'sharing',
    });
    expect(detail.requester).toMatchObject({
      id: requesterId,
      displayName: 'Kartika',
      accountAgeDays: 0,
      otherReports: [{ id: earlier.id, state: 'open' }],
      smsSpent: { total: 1, totalMinor: 7, currency: 'USD' },
      suspension: null,
    });
    expect(detail.requester!.requestsPerDay).toHaveLength(ACTIVITY_DAYS);
    expect(detail.requester!.requestsPerDay.at(-1)).toMatchObject({ sms: 1, email: 0, link: 0 });
    const shown = JSON.stringify(detail);
    expect(shown).not.toContain('+628123456789');
    expect(shown).not.toContain('106.8');
    expect(shown).not.toContain('latitude');

    const audio = await reportVoiceNoteAudio(db(), current.id, () => undefined);
    expect(audio).toMatchObject({ mediaType: 'audio/webm', size: 6 });
    expect(audio.bytes.toString()).toBe('webm!!');
    await expect(reportVoiceNoteAudio(db(), earlier.id, () => undefined)).rejects.toMatchObject({ statusCode: 404 });
    await expect(reportDetail(db(), '00000000-0000-4000-8000-000000000000', undefined)).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
