import { formatDay, formatTime } from './format-time';

describe('formatTime and formatDay', () => {
  const iso = '2026-11-22T14:05:00.000Z';
  const expected = (tag: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(tag, options).format(new Date(iso));

  it('writes a time the way each language does', () => {
    expect(formatTime(iso, 'en')).toBe(expected('en-GB', { dateStyle: 'medium', timeStyle: 'short' }));
    expect(formatTime(iso, 'id')).toBe(expected('id-ID', { dateStyle: 'medium', timeStyle: 'short' }));
    expect(formatTime(iso, 'en')).not.toBe(formatTime(iso, 'id'));
  });

  it('writes a day in words, day first in English as in Indonesian', () => {
    expect(formatDay('2026-12-22T10:00:00.000Z', 'en')).toBe('22 December 2026');
    expect(formatDay('2026-12-22T10:00:00.000Z', 'id')).toBe('22 Desember 2026');
  });

  it('shows what it cannot read as given, and nothing for no value', () => {
    expect(formatTime('not a time', 'en')).toBe('not a time');
    expect(formatDay('not a date', 'id')).toBe('not a date');
    expect(formatTime(null, 'en')).toBe('');
    expect(formatDay(undefined, 'en')).toBe('');
  });
});
