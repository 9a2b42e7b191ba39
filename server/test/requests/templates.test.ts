import { listTemplates, messageLinks, noteProblem, renderMessage } from '../../src/requests/templates';

const links = messageLinks('https://kabari.example', 'en', 'A'.repeat(32));

describe('request messages', () => {
  it('always names the requester and carries the consent and opt-out links, whatever the note', () => {
    for (const channel of ['sms', 'email'] as const) {
      for (const locale of ['en', 'id'] as const) {
        for (const note of ['', 'Home yet?']) {
          const localeLinks = messageLinks('https://kabari.example', locale, 'tok');
          const message = renderMessage({
            channel,
            locale,
            requesterName: 'Sari',
            note,
            links: localeLinks,
            expiresAt: new Date('2026-12-01T00:00:00Z'),
          });
          expect(message.text).toContain('Sari');
          expect(message.text).toContain(localeLinks.consentUrl);
          expect(message.text).toContain(localeLinks.optOutUrl);
          expect(message.text.includes('Home yet?')).toBe(note !== '');
        }
      }
    }
    expect(messageLinks('https://kabari.example', 'id', 'tok')).toEqual({
      consentUrl: 'https://kabari.example/id/enter-link?token=tok',
      optOutUrl: 'https://kabari.example/id/enter-link?token=tok&action=opt-out',
    });
  });

  it('keeps an SMS with the longest note within three segments', () => {
    const message = renderMessage({
      channel: 'sms',
      locale: 'id',
      requesterName: 'Sari Wulandari',
      note: 'x'.repeat(80),
      links,
      expiresAt: new Date(),
    });
    // GSM-7 concatenated segments hold 153 characters each.
    expect(message.text.length).toBeLessThanOrEqual(3 * 153);
  });

  it('escapes the note and the name in the email HTML', () => {
    const message = renderMessage({
      channel: 'email',
      locale: 'en',
      requesterName: '<b>Sari</b>',
      note: '<script>alert(1)</script>',
      links,
      expiresAt: new Date(),
    });
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&#60;script&#62;');
    expect(message.html).not.toContain('<b>Sari</b>');
  });

  it('refuses notes that are too long, multi-line in an SMS, or carry links', () => {
    expect(noteProblem('sms', 'x'.repeat(80))).toBeNull();
    expect(noteProblem('sms', 'x'.repeat(81))?.en).toMatch(/at most 80/);
    expect(noteProblem('sms', 'x'.repeat(81))?.id).toMatch(/paling banyak 80/);
    expect(noteProblem('email', 'x'.repeat(501))?.en).toMatch(/at most 500/);
    expect(noteProblem('sms', 'one\ntwo')?.en).toMatch(/one line/);
    expect(noteProblem('email', 'one\ntwo')).toBeNull();
    expect(noteProblem('email', 'see www.example.com')?.en).toMatch(/cannot contain links/);
    expect(noteProblem('sms', 'verify at bit.ly/x')?.en).toMatch(/cannot contain links/);
    expect(noteProblem('sms', 'See you at 5.30 ok?')).toBeNull();
  });

  it('refuses a link under any top-level domain IANA lists, an email address, and full-width look-alikes', () => {
    for (const note of [
      'Verify at bca-verify.top/login',
      'Promo di diskon.shop hari ini',
      'Install kabari-update.app',
      'Tulis ke cs@bca-help.top',
      'Buka ｂｃａ－ｖｅｒｉｆｙ．ｔｏｐ',
      'Lihat пример.рф',
    ]) {
      expect(noteProblem('sms', note)?.en).toMatch(/^The note cannot contain links or email addresses \(.+\)/);
      expect(noteProblem('email', note)?.id).toMatch(/^Catatan tidak boleh berisi tautan atau alamat email \(.+\)/);
    }
    expect(noteProblem('sms', 'Verify at bca-verify.top/login')?.en).toContain('(bca-verify.top/login)');
    expect(noteProblem('sms', 'Sampai di stasiun jam 5.30 ya. Hati-hati!')).toBeNull();
  });

  it('lists the same template ids in both languages', () => {
    expect(listTemplates('email', 'id').map((template) => template.id)).toEqual(
      listTemplates('email', 'en').map((template) => template.id),
    );
  });
});
