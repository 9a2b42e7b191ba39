import { inputMessageText } from '../../src/lib/messages';
import { displayNameField, displayNameProblem, unsendableNameProblem } from '../../src/auth/display-name';

const parse = (value: unknown) => displayNameField.safeParse(value);
/** The English text of the first problem: the schema gives zod the key of its text. */
const problemOf = (value: string) => {
  const result = parse(value);
  const key = result.success ? undefined : result.error.issues[0]?.message;
  return key === undefined ? null : (inputMessageText(key)?.en ?? key);
};

describe('the display name rule', () => {
  it.each([
    'Sari Wulandari',
    "Dewi O'Brien",
    'Anne-Marie Dupont',
    'M. Rizky, S.Kom',
    'Ni Luh Putu Ayu',
    '山田 太郎',
    'Ελένη Παπαδοπούλου',
    'अनीता शर्मा',
    'Budi 2',
    'Rina 1990',
    'Dana Putri',
    'Permata Sari',
    'x'.repeat(40),
  ])('accepts %j', (name) => {
    expect(parse(name)).toEqual({ success: true, data: name });
  });

  it('stores the name composed, trimmed, with single spaces', () => {
    expect(parse('  Sari \t  Wulandari ')).toEqual({ success: true, data: 'Sari Wulandari' });
    expect(parse('Jose\u0301')).toEqual({ success: true, data: 'José' });
  });

  it.each([
    ['BCA Bank - verify: https://bca-verify.top/login', 'A name cannot contain a web address or an email address'],
    ['BCA Bank bca-verify.top', 'A name cannot contain a web address or an email address'],
    ['Sari sari@mail.example.com', 'A name cannot contain a web address or an email address'],
    ['Budi.id', 'A name cannot contain a web address or an email address'],
    ['Call 0812 3456 7890', 'A name cannot contain a phone number'],
    ['Sari +62 812-3456-7890', 'A name cannot contain a phone number'],
    ['Halo 1500888', 'A name cannot contain a phone number'],
    ['Sari 12345', 'A name can contain at most 4 digits'],
    ['Bank BCA Security', "A name cannot contain the name of a bank or a payment service, nor Kabari's"],
    ['B C A', "A name cannot contain the name of a bank or a payment service, nor Kabari's"],
    ['Mandiri Care', "A name cannot contain the name of a bank or a payment service, nor Kabari's"],
    ['ShopeePay', "A name cannot contain the name of a bank or a payment service, nor Kabari's"],
    ['Kabari', "A name cannot contain the name of a bank or a payment service, nor Kabari's"],
    ['Sari: verify now', "A name can contain only letters, spaces and the marks . , ' -"],
    ['Sari 😀', "A name can contain only letters, spaces and the marks . , ' -"],
    ['Sari\u202eayiD', "A name can contain only letters, spaces and the marks . , ' -"],
    ['<b>Sari</b>', "A name can contain only letters, spaces and the marks . , ' -"],
    ['x'.repeat(41), 'The name can be at most 40 characters'],
    ['x'.repeat(400), 'The name can be at most 40 characters'],
    ['.-,', 'A name must contain at least one letter'],
    ['   ', 'Please fill in your name'],
  ])('refuses %j', (name, problem) => {
    expect(problemOf(name)).toBe(problem);
  });

  it('says each problem in Indonesian too', () => {
    expect(displayNameProblem('bca-verify.top')).toEqual({
      en: 'A name cannot contain a web address or an email address',
      id: 'Nama tidak boleh berisi alamat web atau alamat email',
    });
    expect(displayNameProblem('0812 3456')?.id).toBe('Nama paling banyak berisi 4 angka');
    expect(displayNameProblem('Sari 0812 3456 7890')?.id).toBe('Nama tidak boleh berisi nomor telepon');
    expect(displayNameProblem('Layanan BRI')?.id).toBe(
      'Nama tidak boleh memuat nama bank, layanan pembayaran, atau Kabari',
    );
    expect(displayNameProblem('Sari!')?.id).toBe("Nama hanya boleh berisi huruf, spasi, dan tanda . , ' -");
    expect(displayNameProblem('x'.repeat(41))?.id).toBe('Nama paling banyak 40 karakter');
  });

  it('tells the owner of a name stored before the rule how to fix it, in both languages', () => {
    expect(unsendableNameProblem('Sari Wulandari')).toBeNull();
    expect(unsendableNameProblem('BCA Bank - verify: https://bca-verify.top/login')).toEqual({
      en:
        'Your display name cannot appear in a message to someone else: a name cannot contain a web address or an ' +
        'email address. Change it in My subscription, under Account, then send again.',
      id:
        'Nama tampilan Anda tidak bisa dipakai dalam pesan kepada orang lain: nama tidak boleh berisi alamat web ' +
        'atau alamat email. Ubah di Langganan Saya, bagian Akun, lalu kirim lagi.',
    });
  });
});
