import { displayNameProblem } from './display-name';

describe('displayNameProblem', () => {
  it.each([
    'Sari Wulandari',
    "Dewi O'Brien",
    'M. Rizky, S.Kom',
    '山田 太郎',
    'अनीता शर्मा',
    'Budi 2',
    'Dana Putri',
    'x'.repeat(40),
  ])('accepts %j', (name) => expect(displayNameProblem(name)).toBeNull());

  it.each([
    ['BCA Bank - verify: https://bca-verify.top/login', 'withLink'],
    ['BCA bca-verify.top', 'withLink'],
    ['ｂｃａ－ｖｅｒｉｆｙ．ｔｏｐ', 'withLink'],
    ['Sari sari@mail.example.com', 'withLink'],
    ['Call 0812 3456 7890', 'withPhone'],
    ['Sari +62 812-3456-7890', 'withPhone'],
    ['Sari 12345', 'digits'],
    ['Bank BCA Security', 'withBrand'],
    ['B.C.A', 'withBrand'],
    ['GoPay', 'withBrand'],
    ['DANA Official', 'withBrand'],
    ['Kabari', 'withBrand'],
    ['Sari: verify now', 'characters'],
    ['Sari 😀', 'characters'],
    ['x'.repeat(41), 'tooLong'],
    ['.-,', 'noLetter'],
    ['  ', 'empty'],
  ])('refuses %j (%s)', (name, problem) => expect(displayNameProblem(name)).toBe(problem));
});
