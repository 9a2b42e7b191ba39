import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { abuseReports, locationRequests } from '../../../src/db/schema/location-requests';
import { abuseReportNotes, voiceNoteAudio, voiceNotes } from '../../../src/db/schema/voice-notes';
import { pruneExpiredData } from '../../../src/retention/retention-job';
import { describeEachDatabase } from '../../support/databases';
import { insertRequest, insertRequester } from '../../support/share-fixtures';
import { buildTestApp, type TestApp } from '../../support/test-app';

describeEachDatabase('abuse reports through a link', (driver) => {
  let testApp: TestApp;
  let requesterId: string;
  let address = 0;

  beforeAll(async () => {
    // With the web apps served, for the consent page's plain forms.
    testApp = await buildTestApp(driver, { SERVE_WEB: 'true', WEB_ROOT: path.join(__dirname, '../../fixtures/web') });
    requesterId = await insertRequester(testApp.app.db, 'Budi Santoso');
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const db = () => testApp.app.db;
  // Each call from its own address, so the per-address throttle stays out of the way.
  const inject = (options: InjectOptions) => {
    address += 1;
    return testApp.app.inject({ remoteAddress: `198.51.100.${address % 250}`, ...options });
  };
  const report = (token: string, cookie?: string, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: `/api/v1/share/links/${encodeURIComponent(token)}/report`,
      payload: { reason: 'harassment', details: 'Someone I do not know' },
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
    });
  const reporterCookie = (answer: Awaited<ReturnType<typeof report>>) => {
    const set = answer.cookies.find((cookie) => cookie.name === 'kabari-reporter');
    return set ? `${set.name}=${set.value}` : undefined;
  };
  const reportsOf = (tokenHash: string) => db().$count(abuseReports, eq(abuseReports.tokenHash, tokenHash));

  /** A request with a recorded note of the requester's, as sending it stores it. */
  async function requestWithNote() {
    const request = await insertRequest(db(), requesterId);
    const [note] = await db()
      .insert(voiceNotes)
      .values({
        userId: requesterId,
        requestId: request.id,
        kind: 'request',
        mediaType: 'audio/webm',
        durationMs: 2000,
        byteSize: 6,
        text: 'Ini Budi',
      })
      .returning();
    await db()
      .insert(voiceNoteAudio)
      .values({ voiceNoteId: note!.id, bytes: Buffer.from('webm!!') });
    return request;
  }

  it('takes one report per link from a browser: the same browser reporting again gets the same answer and stores nothing', async () => {
    const request = await insertRequest(db(), requesterId);
    const first = await report(request.token);
    expect(first.statusCode).toBe(200);
    const cookie = reporterCookie(first);
    // A session cookie the page's scripts cannot read, holding nothing about the link.
    const set = first.cookies.find((given) => given.name === 'kabari-reporter');
    expect(set).toMatchObject({ httpOnly: true, path: '/' });
    expect(set).not.toHaveProperty('maxAge');
    expect(set).not.toHaveProperty('expires');
    expect(cookie).not.toContain(request.token);

    const again = await report(request.token, cookie);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(reporterCookie(again)).toBeUndefined();
    expect(await reportsOf(request.tokenHash)).toBe(1);
    const [stored] = await db().select().from(abuseReports).where(eq(abuseReports.id, first.json().data.id));
    expect(stored).toMatchObject({ requestId: request.id, requesterId, reason: 'harassment' });
    expect(JSON.stringify(stored)).not.toContain(cookie!.split('=')[1]);

    // Another link from the same browser is another report.
    const other = await insertRequest(db(), requesterId);
    const otherReport = await report(other.token, cookie);
    expect(otherReport.statusCode).toBe(200);
    expect(otherReport.json().data.id).not.toBe(first.json().data.id);
  });

  it('takes at most three reports per link, then says so in both languages and stores nothing', async () => {
    const request = await insertRequest(db(), requesterId);
    // Without its cookie each call is a new browser: what someone reporting their own link over and over does.
    for (let i = 0; i < 3; i += 1) expect((await report(request.token)).statusCode).toBe(200);
    const refused = await report(request.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      status: 409,
      message:
        'This link has already been reported 3 times. Kabari has those reports and will look into them, so ' +
        'nothing more was stored.',
      data: null,
    });
    const refusedInIndonesian = await report(request.token, undefined, { 'accept-language': 'id' });
    expect(refusedInIndonesian.statusCode).toBe(409);
    expect(refusedInIndonesian.json().message).toBe(
      'Tautan ini sudah dilaporkan 3 kali. Kabari sudah menerima laporan-laporan itu dan akan menindaklanjutinya, ' +
        'jadi laporan ini tidak disimpan lagi.',
    );
    expect(await reportsOf(request.tokenHash)).toBe(3);

    // Still so once the requester deleted the request: the link is the same.
    await db().delete(locationRequests).where(eq(locationRequests.id, request.id));
    expect((await report(request.token)).statusCode).toBe(409);
    expect(await reportsOf(request.tokenHash)).toBe(3);
  });

  it('keeps one copy of the note however many reports cite it, until no report does', async () => {
    const request = await requestWithNote();
    const copies = () => db().$count(voiceNotes, eq(voiceNotes.kind, 'report'));
    const before = await copies();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await report(request.token);
      expect(answer.statusCode).toBe(200);
      ids.push(answer.json().data.id);
    }
    expect(await copies()).toBe(before + 1);
    const cited = await db()
      .select()
      .from(abuseReportNotes)
      .where(sql`${abuseReportNotes.reportId} in (${sql.join(ids, sql`, `)})`);
    expect(cited).toHaveLength(3);
    const copyIds = new Set(cited.map((row) => row.voiceNoteId));
    expect(copyIds.size).toBe(1);
    const [copyId] = [...copyIds];
    const [copy] = await db().select().from(voiceNotes).where(eq(voiceNotes.id, copyId!));
    expect(copy).toMatchObject({ kind: 'report', userId: null, requestId: null, text: 'Ini Budi', byteSize: 6 });
    const [audio] = await db().select().from(voiceNoteAudio).where(eq(voiceNoteAudio.voiceNoteId, copyId!));
    expect(audio?.bytes.toString()).toBe('webm!!');

    // The reports outlive the request and the note.
    await db().delete(locationRequests).where(eq(locationRequests.id, request.id));
    expect(await db().$count(voiceNotes, eq(voiceNotes.id, copyId!))).toBe(1);

    // The retention job deletes reports a year old: the copy stays while one report still cites it...
    const age = (reportIds: string[]) =>
      db().execute(
        sql`update abuse_reports set created_at = now() - interval '366 days'
            where id in (${sql.join(reportIds, sql`, `)})`,
      );
    await age(ids.slice(0, 2));
    expect(await pruneExpiredData(db(), 30)).toMatchObject({ abuseReports: 2 });
    expect(await db().$count(voiceNotes, eq(voiceNotes.id, copyId!))).toBe(1);
    // ...and goes, with its audio, with the last one.
    await age(ids.slice(2));
    expect(await pruneExpiredData(db(), 30)).toMatchObject({ abuseReports: 1, voiceNotes: 1 });
    expect(await db().$count(voiceNotes, eq(voiceNotes.id, copyId!))).toBe(0);
    expect(await db().$count(voiceNoteAudio, eq(voiceNoteAudio.voiceNoteId, copyId!))).toBe(0);
  });

  it('knows the browser that reports through the page’s plain form too', async () => {
    const request = await insertRequest(db(), requesterId);
    const send = (cookie?: string) =>
      inject({
        method: 'POST',
        url: `/enter-link?token=${encodeURIComponent(request.token)}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'sec-fetch-site': 'same-origin',
          ...(cookie ? { cookie } : {}),
        },
        payload: 'action=report&reason=spam',
      });
    const first = await send();
    expect(first.statusCode).toBe(303);
    const cookie = reporterCookie(first);
    expect(cookie).toBeDefined();
    expect((await send(cookie)).statusCode).toBe(303);
    expect(await reportsOf(request.tokenHash)).toBe(1);
  });
});
