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
          expect(message.text).toContain(localeLinks.overviewUrl);
          expect(message.text.includes('Home yet?')).toBe(note !== '');
        }
      }
    }
    expect(messageLinks('https://kabari.example', 'id', 'tok')).toEqual({
      consentUrl: 'https://kabari.example/id/enter-link?token=tok',
      optOutUrl: 'https://kabari.example/id/enter-link?token=tok&action=opt-out',
      overviewUrl: 'https://kabari.example/id/my-requests',
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

  it('refuses a phone number written any way people write one, and not a time, a date, a year or an amount', () => {
    expect(noteProblem('sms', 'BCA: rekening diblokir, hubungi 0812 3456 7890')).toEqual({
      en: "The note cannot contain phone numbers (0812 3456 7890): the recipient answers through the message's own link",
      id: 'Catatan tidak boleh berisi nomor telepon (0812 3456 7890): penerima menjawab lewat tautan di pesan itu sendiri',
    });
    for (const note of [
      'Call 0812-3456-7890',
      'WA 0812.3456.7890',
      'hubungi +62 812 3456 7890',
      'call +1 415 555 2671',
    ]) {
      expect(noteProblem('sms', note)?.en).toMatch(/^The note cannot contain phone numbers \(.+\)/);
    }
    for (const note of ["Mum, it's 5 pm", 'Ketemu 12-05-2025 jam 17.30', 'Bawa Rp 1.500.000 ya', 'Since 2019!']) {
      expect(noteProblem('email', note)).toBeNull();
    }
  });

  it('lists the same template ids in both languages', () => {
    expect(listTemplates('email', 'id').map((template) => template.id)).toEqual(
      listTemplates('email', 'en').map((template) => template.id),
    );
  });
});
