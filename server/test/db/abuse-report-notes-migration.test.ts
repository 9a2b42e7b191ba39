import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { abuseReports } from '../../src/db/schema/location-requests';
import { abuseReportNotes, voiceNoteAudio, voiceNotes } from '../../src/db/schema/voice-notes';
import { newRequestToken, requestTokenHash } from '../../src/requests/request-tokens';
import { pruneExpiredData } from '../../src/retention/retention-job';
import { appAfterMigration } from '../support/database-before-migration';
import { describeEachDatabase } from '../support/databases';

describeEachDatabase('migration 0026: abuse reports cite one copy of a note', (driver) => {
  const appAfter = appAfterMigration(driver, 26);

  it('keeps one copy per reported link, counts the reports a link had, and prunes the copy with its last report', async () => {
    const token = newRequestToken();
    const tokenHash = requestTokenHash(token);
    const [userId, requestId, noteId] = [randomUUID(), randomUUID(), randomUUID()];
    // Three reports of one link, each with the copy it kept; one of a request deleted since; one without a note.
    const linked = [randomUUID(), randomUUID(), randomUUID()];
    const [orphanReport, silentReport] = [randomUUID(), randomUUID()];
    const copies = [randomUUID(), randomUUID(), randomUUID()];
    const orphanCopy = randomUUID();
    const app = await appAfter(async (run) => {
      await run(`insert into users (id, email, display_name, password_hash)
                 values ('${userId}', 'budi@example.com', 'Budi', 'not-a-real-hash')`);
      await run(`insert into location_requests (id, user_id, channel, target, token_hash, locale, expires_at)
                 values ('${requestId}', '${userId}', 'sms', '+628123456789', '${tokenHash}', 'en',
                         now() + interval '1 day')`);
      await run(`insert into voice_notes (id, user_id, request_id, kind, media_type, duration_ms, byte_size, text)
                 values ('${noteId}', '${userId}', '${requestId}', 'request', 'audio/webm', 2000, 4, 'Ini Budi')`);
      await run(`insert into voice_note_audio (voice_note_id, bytes) values ('${noteId}', 'note'::bytea)`);
      for (const [i, reportId] of linked.entries()) {
        await run(`insert into abuse_reports (id, request_id, requester_id, reason, created_at)
                   values ('${reportId}', '${requestId}', '${userId}', 'spam', now() - interval '${3 - i} hours')`);
        await run(`insert into voice_notes (id, report_id, kind, media_type, duration_ms, byte_size, text, created_at)
                   values ('${copies[i]}', '${reportId}', 'report', 'audio/webm', 2000, 4, 'Ini Budi',
                           now() - interval '${3 - i} hours')`);
        await run(`insert into voice_note_audio (voice_note_id, bytes) values ('${copies[i]}', 'note'::bytea)`);
      }
      await run(
        `insert into abuse_reports (id, requester_id, reason) values ('${orphanReport}', '${userId}', 'stalking')`,
      );
      await run(`insert into voice_notes (id, report_id, kind, media_type, duration_ms, byte_size)
                 values ('${orphanCopy}', '${orphanReport}', 'report', 'audio/ogg', 1000, 3)`);
      await run(`insert into voice_note_audio (voice_note_id, bytes) values ('${orphanCopy}', 'ogg'::bytea)`);
      await run(
        `insert into abuse_reports (id, requester_id, reason) values ('${silentReport}', '${userId}', 'other')`,
      );
    });
    const { db } = app;

    // Every report stays; those of the link know it, and cite its oldest copy.
    expect(await db.$count(abuseReports)).toBe(5);
    expect(await db.$count(abuseReports, eq(abuseReports.tokenHash, tokenHash))).toBe(3);
    const cited = new Map(
      (await db.select().from(abuseReportNotes)).map((row) => [row.reportId, row.voiceNoteId] as const),
    );
    expect(cited).toEqual(
      new Map([
        [linked[0], copies[0]],
        [linked[1], copies[0]],
        [linked[2], copies[0]],
        [orphanReport, orphanCopy],
      ]),
    );
    // The other copies and their audio are gone; the note itself is untouched.
    const kept = (await db.select({ id: voiceNotes.id }).from(voiceNotes)).map((row) => row.id).sort();
    expect(kept).toEqual([noteId, copies[0], orphanCopy].sort());
    expect(await db.$count(voiceNoteAudio)).toBe(3);

    // The link already has three reports: a fourth browser's is refused and stores nothing.
    const fourth = await app.inject({
      method: 'POST',
      url: `/api/v1/share/links/${token}/report`,
      payload: { reason: 'spam' },
    });
    expect(fourth.statusCode).toBe(409);
    expect(await db.$count(abuseReports)).toBe(5);

    // A copy is a report's only: it may not belong to an account or a request.
    await expect(
      db.execute(sql`update voice_notes set user_id = ${userId} where id = ${copies[0]!}`),
    ).rejects.toThrow();

    // Once its reports are a year old, the retention job deletes them and the copy they cited.
    await db.execute(sql`update abuse_reports set created_at = now() - interval '366 days'`);
    expect(await pruneExpiredData(db, 30)).toMatchObject({ abuseReports: 5, voiceNotes: 2 });
    expect((await db.select({ id: voiceNotes.id }).from(voiceNotes)).map((row) => row.id)).toEqual([noteId]);
    expect(await db.$count(voiceNoteAudio)).toBe(1);
  });
});
