import { emptyDraft, validateContact, type ContactDraft } from './contact-form-validation';

const valid: ContactDraft = {
  name: 'Dewi',
  email: 'dewi@example.com',
  topic: 'privacy',
  message: 'Please export my data.',
};

describe('validateContact', () => {
  it('accepts a complete message, trimming what was typed', () => {
    expect(validateContact(valid)).toEqual({});
    expect(validateContact({ ...valid, name: '  Dewi  ', message: '   Please export my data.   ' })).toEqual({});
  });

  it('names every missing field', () => {
    expect(validateContact(emptyDraft)).toEqual({
      name: 'nameRequired',
      email: 'emailRequired',
      topic: 'topicRequired',
      message: 'messageRequired',
    });
    expect(validateContact({ ...valid, name: '   ', message: '\n\n' })).toEqual({
      name: 'nameRequired',
      message: 'messageRequired',
    });
  });

  it.each([
    [{ name: 'x'.repeat(101) }, { name: 'nameTooLong' }],
    [{ name: 'Dewi\nLestari' }, { name: 'nameOneLine' }],
    [{ email: 'dewi@example' }, { email: 'emailInvalid' }],
    [{ email: 'dewi lestari@example.com' }, { email: 'emailInvalid' }],
    [{ message: 'Too short' }, { message: 'messageTooShort' }],
    [{ message: 'x'.repeat(5001) }, { message: 'messageTooLong' }],
  ])('refuses %j', (change, expected) => {
    expect(validateContact({ ...valid, ...change })).toEqual(expected);
  });

  it('allows exactly the limits', () => {
    expect(validateContact({ ...valid, name: 'x'.repeat(100), message: 'x'.repeat(10) })).toEqual({});
    expect(validateContact({ ...valid, message: 'x'.repeat(5000) })).toEqual({});
  });
});
