import en from '../../src/i18n/api.en.json';
import { HttpError } from '../../src/lib/envelope';
import {
  inputMessage,
  inputMessageText,
  longDate,
  messagesOf,
  requestLocale,
  sayCommon,
  waitText,
} from '../../src/lib/messages';

describe('API messages in both languages', () => {
  it('fills the parameters in each language, {{wait, wait}} as a duration in words', () => {
    expect(sayCommon('tooManyRequests', { wait: 300 })).toEqual({
      en: 'Too many requests. Please try again in 5 minutes.',
      id: 'Terlalu banyak permintaan. Silakan coba lagi dalam 5 menit.',
    });
    expect(sayCommon('passwordLength', { min: 8, max: 64 }).id).toBe(
      'Kata sandi harus terdiri dari 8 sampai 64 karakter.',
    );
    expect(waitText(1)).toBe('1 second');
    expect(waitText(45, 'id')).toBe('45 detik');
    expect(waitText(89)).toBe('89 seconds');
    expect(waitText(90, 'id')).toBe('2 menit');
  });

  it('names a day as it is in Jakarta (WIB), in each language, not in UTC', () => {
    // 18:30 UTC is 01:30 the next morning in Jakarta.
    const evening = new Date('2026-12-06T18:30:00Z');
    expect(longDate(evening, 'id')).toBe('7 Desember 2026');
    expect(longDate(evening, 'en')).toBe('7 December 2026');
    // 16:59 UTC is still 23:59 the same day.
    expect(longDate(new Date('2026-12-06T16:59:00Z'), 'id')).toBe('6 Desember 2026');
  });

  it('puts text in as it is: the places it goes to escape it themselves', () => {
    expect(messagesOf('common')('notFound', { method: 'GET', path: '/a?b=<c>&d' }).en).toBe(
      'Not found: GET /a?b=<c>&d',
    );
  });

  it('gives a schema the key of its message, and the error handler both languages of it', () => {
    expect(inputMessage('common.enterValidEmail')).toBe('common.enterValidEmail');
    expect(inputMessageText('common.enterValidEmail')).toEqual({
      en: 'Enter valid email address',
      id: 'Masukkan alamat email yang valid',
    });
    expect(inputMessage('contact.nameTooLong', { max: 100 })).toBe('contact.nameTooLong');
    expect(inputMessageText('contact.nameTooLong')?.en).toBe('The name is longer than 100 characters');
    // The English text is not a key: a validator's own words are not looked up.
    expect(inputMessageText(en.common.enterValidEmail)).toBeUndefined();
    expect(inputMessageText('common.notAKey')).toBeUndefined();
  });

  it('refuses one schema message with two sets of parameters', () => {
    inputMessage('contact.messageTooShort', { min: 10 });
    expect(() => inputMessage('contact.messageTooShort', { min: 11 })).toThrow('contact.messageTooShort');
  });

  it('reads the language from Accept-Language, English otherwise', () => {
    const locale = (value?: string) =>
      requestLocale({ headers: value === undefined ? {} : { 'accept-language': value } });
    expect(locale('id')).toBe('id');
    expect(locale('id-ID,id;q=0.9,en;q=0.8')).toBe('id');
    expect(locale('in')).toBe('id');
    expect(locale('en-US')).toBe('en');
    expect(locale('fr-FR')).toBe('en');
    expect(locale()).toBe('en');
  });

  it('HttpError keeps English as its message and answers either language', () => {
    const error = new HttpError(400, sayCommon('invalidCode'));
    expect(error.message).toBe('The verification code is incorrect or has expired.');
    expect(error.messageIn('id')).toBe('Kode verifikasi salah atau sudah kedaluwarsa.');
    expect(new HttpError(400, 'plain').messageIn('id')).toBe('plain');
  });
});
