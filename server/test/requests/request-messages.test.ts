import { hoursText } from '../../src/requests/request-messages';

describe('a wait of hours in words', () => {
  it('says hours and minutes in each language, singular where English needs it', () => {
    expect(hoursText(7 * 3600 + 5 * 60, 'en')).toBe('7 hours 5 minutes');
    expect(hoursText(7 * 3600 + 5 * 60, 'id')).toBe('7 jam 5 menit');
    expect(hoursText(3600 + 45 * 60, 'en')).toBe('1 hour 45 minutes');
    expect(hoursText(2 * 3600 + 60, 'en')).toBe('2 hours 1 minute');
    expect(hoursText(2 * 3600 + 60, 'id')).toBe('2 jam 1 menit');
    expect(hoursText(2 * 3600, 'en')).toBe('2 hours');
    expect(hoursText(2 * 3600, 'id')).toBe('2 jam');
  });

  it('says a wait under 90 minutes in minutes or seconds', () => {
    expect(hoursText(89 * 60, 'en')).toBe('89 minutes');
    expect(hoursText(30, 'id')).toBe('30 detik');
  });
});
