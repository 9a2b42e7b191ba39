import { isCardNumberValid } from './card-validation';

describe('the card number check', () => {
  it('takes a number of a known brand as typed, with spaces', () => {
    for (const number of ['4242 4242 4242 4242', '5555 5555 5555 4444', '3782 822463 10005', '4000000000000002']) {
      expect(isCardNumberValid(number)).toBe(true);
    }
  });

  it('refuses a wrong checksum, a number no brand issues and one too short for its brand', () => {
    for (const number of ['4242 4242 4242 4241', '1234 5678 9012 3452', '4242 4242 4242', '']) {
      expect(isCardNumberValid(number)).toBe(false);
    }
  });
});
