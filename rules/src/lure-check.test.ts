import { findBrand, findLure, findPhoneNumber } from './lure-check';

describe('findPhoneNumber', () => {
  it.each([
    ['BCA: rekening diblokir, hubungi 0812 3456 7890', '0812 3456 7890'],
    ['Blocked account, call 0812-3456-7890 now', '0812-3456-7890'],
    ['WA ke 0812.3456.7890 ya', '0812.3456.7890'],
    ['hubungi +62 812 3456 7890', '+62 812 3456 7890'],
    ['chat wa 6281234567890', '6281234567890'],
    ['Halo BCA 1500888', '1500888'],
    ['call +1 415 555 2671', '+1 415 555 2671'],
    ['call +44 7700 900123', '+44 7700 900123'],
    ['telp (021) 500 888', '(021) 500 888'],
    ['hubungi ０８１２３４５６７８９０', '０８１２３４５６７８９０'],
    ['nomor 0812 0000 0000 0', '0812 0000 0000 0'],
  ])('finds the number in %j', (text, number) => {
    expect(findPhoneNumber(text)).toBe(number);
  });

  it.each([
    "Mum, it's 5 pm",
    'Ibu, sudah jam 5 sore',
    'See you in 2024!',
    'Kita ketemu tanggal 12-05-2024 jam 17.30',
    'Meet at 09.00-17.00 on 05/12/2025',
    'Bawa Rp 1.500.000 ya',
    'It costs 2,000,000 rupiah',
    'Room 1204, floor 12',
    'Flight GA 404 lands at 21:45',
  ])('finds none in %j', (text) => {
    expect(findPhoneNumber(text)).toBeNull();
  });
});

describe('findBrand', () => {
  it.each([
    ['Bank BCA Security', 'Bank'],
    ['BCA Care', 'BCA'],
    ['bca', 'bca'],
    ['B C A', 'B C A'],
    ['B.C.A Halo', 'B C A'],
    ['HaloBCA', 'BCA'],
    ['Layanan BRI', 'BRI'],
    ['Mandiri Official', 'Mandiri'],
    ['CIMB Niaga', 'CIMB'],
    ['GoPay', 'Go Pay'],
    ['Shopee Pay', 'Shopee Pay'],
    ['Link Aja CS', 'Link Aja'],
    ['OVO Hadiah', 'OVO'],
    ['DANA', 'DANA'],
    ['D A N A', 'D A N A'],
    ['Dana Official', 'Dana'],
    ['Permata Care', 'Permata'],
    ['QRIS Promo', 'QRIS'],
    ['PayPal Support', 'Pay Pal'],
    ['Visa', 'Visa'],
    ['Master Card', 'Master Card'],
    ['Tim Kabari', 'Kabari'],
    ['ＢＣＡ', 'BCA'],
  ])('finds the brand in %j', (name, brand) => {
    expect(findBrand(name)).toBe(brand);
  });

  it.each([
    'Sari Wulandari',
    'Dana Putri',
    'Permata Sari',
    'Bri Johnson',
    'Dan A. Smith',
    'J.R.R. Tolkien',
    'M. Rizky, S.Kom',
    'Brian Ovando',
    'Bambang Cahyadi',
    'Ni Luh Putu Ayu',
    'Kabarini',
  ])('finds none in %j', (name) => {
    expect(findBrand(name)).toBeNull();
  });
});

describe('findLure', () => {
  it('names a link first, then a phone number; a brand only in a name', () => {
    expect(findLure('BCA: verify at bca-verify.top or call 0812 3456 7890')).toEqual({
      kind: 'link',
      found: 'bca-verify.top',
    });
    expect(findLure('BCA: rekening diblokir, hubungi 0812 3456 7890')).toEqual({
      kind: 'phone',
      found: '0812 3456 7890',
    });
    expect(findLure('Transfer lewat BCA saja')).toBeNull();
    expect(findLure('Bank BCA Security', { asName: true })).toEqual({ kind: 'brand', found: 'Bank' });
  });

  it.each([
    "Mum, it's 5 pm. Home yet?",
    'Cuma mau memastikan kamu sudah sampai dengan selamat.',
    'Kita ketemu di stasiun ya. Jam 5.30!',
    'Happy birthday! 2025 will be great.',
  ])('lets ordinary text through: %j', (text) => {
    expect(findLure(text)).toBeNull();
  });
});
