import { formatTime } from './format-time';

describe('formatTime', () => {
  const iso = '2026-11-22T14:05:00.000Z';
  const expected = (tag: string) =>
    new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  it('writes a time the way each language does', () => {
    expect(formatTime(iso, 'en')).toBe(expected('en-GB'));
    expect(formatTime(iso, 'id')).toBe(expected('id-ID'));
    expect(formatTime(iso, 'en')).not.toBe(formatTime(iso, 'id'));
  });

  it('shows what it cannot read as given', () => {
    expect(formatTime('not a time', 'en')).toBe('not a time');
  });
});
