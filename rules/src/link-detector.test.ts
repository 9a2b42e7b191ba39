import { LinkifyIt } from 'linkify-it';
import tlds from 'tlds';
import { findLink } from './link-detector';

describe('findLink', () => {
  it.each([
    ['BCA Bank - verify: https://bca-verify.top/login', 'https://bca-verify.top/login'],
    ['bca-verify.top', 'bca-verify.top'],
    ['cek secure-login.app sekarang', 'secure-login.app'],
    ['belanja di promo.shop', 'promo.shop'],
    ['wa.me/6281234567890', 'wa.me/6281234567890'],
    ['bit.ly/x', 'bit.ly/x'],
    ['pay at bank.xn--p1ai', 'bank.xn--p1ai'],
    ['пример.рф', 'пример.рф'],
    ['ｂｃａ－ｖｅｒｉｆｙ．ｔｏｐ', 'bca-verify.top'],
    ['write to cs@bca-help.top', 'cs@bca-help.top'],
    ['open 192.168.1.20 now', '192.168.1.20'],
    ['www.bca', 'www.bca'],
    ['hxxp://bca', 'hxxp://bca'],
  ])('finds the link in %j', (text, link) => {
    expect(findLink(text)).toBe(link);
  });

  it.each([
    'Just checking that you got there safely.',
    'Cuma mau memastikan kamu sudah sampai dengan selamat.',
    'Kita ketemu di stasiun ya. Jam 5.30!',
    'Dr. Sari Wulandari',
    'J.R.R. Tolkien',
    'Moh.Ali',
    'Home yet? Love, Rina',
  ])('finds none in %j', (text) => {
    expect(findLink(text)).toBeNull();
  });
});

describe('findLink without a dot, @, colon or slash', () => {
  // What findLink skips linkify-it on: the same linkifier finds nothing in any of these.
  const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: true, fuzzyIP: true }).tlds(tlds);
  it.each([
    'Rina',
    'localhost',
    'www bca',
    'bca verify top',
    'xn--p1ai',
    'пример рф',
    'bca。top',
    'mailto',
    'http bca',
    '192 168 1 20',
  ])('%j holds no link', (text) => {
    expect(linkify.match(text)).toBeNull();
    expect(findLink(text)).toBeNull();
  });

  it('does not search such a text with linkify-it', () => {
    const match = jest.spyOn(LinkifyIt.prototype, 'match');
    try {
      expect(findLink('Siti Rahmawati')).toBeNull();
      expect(match).not.toHaveBeenCalled();
      expect(findLink('siti.top')).toBe('siti.top');
      expect(match).toHaveBeenCalled();
    } finally {
      match.mockRestore();
    }
  });
});
