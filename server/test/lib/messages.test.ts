import { defineMessages, knownText, requestLocale, sayCommon, waitText } from '../../src/lib/messages';
import { HttpError } from '../../src/lib/envelope';

describe('API messages in both languages', () => {
  const say = defineMessages(
    { hello: 'Hello {name}, wait {wait}.', plain: 'A plain sentence for the lookup test.' },
    { hello: 'Halo {name}, tunggu {wait}.', plain: 'Kalimat biasa untuk uji pencarian.' },
  );

  it('fills the parameters in each language, {wait} as a duration in words', () => {
    expect(say('hello', { name: 'Ana', wait: 300 })).toEqual({
      en: 'Hello Ana, wait 5 minutes.',
      id: 'Halo Ana, tunggu 5 menit.',
    });
    expect(waitText(1)).toBe('1 second');
    expect(waitText(45, 'id')).toBe('45 detik');
    expect(waitText(89)).toBe('89 seconds');
    expect(waitText(90, 'id')).toBe('2 menit');
  });

  it('refuses a catalogue whose languages fill in different parameters for one text', () => {
    expect(() =>
      defineMessages({ greeting: 'Hello {name}, wait {wait}.' }, { greeting: 'Halo {nama}, tunggu {wait}.' }),
    ).toThrow('message greeting: English fills in {name, wait}, Indonesian {nama, wait}');
    expect(() => defineMessages({ note: 'Wait {wait}.' }, { note: 'Tunggu sebentar.' })).toThrow('message note');
  });

  it('finds both languages of a parameterless English text (a schema message)', () => {
    expect(knownText('A plain sentence for the lookup test.')).toEqual({
      en: 'A plain sentence for the lookup test.',
      id: 'Kalimat biasa untuk uji pencarian.',
    });
    expect(knownText('Enter valid email address')?.id).toBe('Masukkan alamat email yang valid');
    expect(knownText('Hello {name}, wait {wait}.')).toBeUndefined();
    expect(knownText('not a catalogue text')).toBeUndefined();
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
