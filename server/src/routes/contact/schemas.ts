import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { defineMessages, sayCommon } from '../../lib/messages';
import { CONTACT_TOPICS } from '../../mail/contact-message';
import { emailField } from '../auth/schemas';

// The same limits as the form (remote-search/src/features/contact/contact-form-validation.ts).
export const NAME_MAX = 100;
export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

/** The contact form's texts, both languages; the schema gives zod the English one and the answer is localised. */
export const sayContact = defineMessages(
  {
    tooManyMessages: 'Too many messages from this network. Please try again in {wait}.',
    nameTooLong: `The name is longer than ${NAME_MAX} characters`,
    nameOneLine: 'The name must be on one line',
    chooseTopic: 'Please choose a topic',
    writeMessage: 'Please write your message',
    messageTooShort: `The message must have at least ${MESSAGE_MIN} characters`,
    messageTooLong: `The message is longer than ${MESSAGE_MAX} characters`,
  },
  {
    tooManyMessages: 'Terlalu banyak pesan dari jaringan ini. Silakan coba lagi dalam {wait}.',
    nameTooLong: `Nama lebih dari ${NAME_MAX} karakter`,
    nameOneLine: 'Nama harus satu baris',
    chooseTopic: 'Silakan pilih topik',
    writeMessage: 'Silakan tulis pesan Anda',
    messageTooShort: `Pesan minimal ${MESSAGE_MIN} karakter`,
    messageTooLong: `Pesan lebih dari ${MESSAGE_MAX} karakter`,
  },
);

// No line breaks or other control characters: the name goes into the email's subject line.
const SINGLE_LINE = /^[^\p{Cc}]*$/u;

export const contactMessageBody = z.object({
  name: z
    .string({ message: sayCommon('fillInName').en })
    .trim()
    .min(1, sayCommon('fillInName').en)
    .max(NAME_MAX, sayContact('nameTooLong').en)
    .regex(SINGLE_LINE, sayContact('nameOneLine').en),
  email: emailField.describe('Where the reply goes'),
  topic: z
    .enum(CONTACT_TOPICS, { message: sayContact('chooseTopic').en })
    .describe(`One of ${CONTACT_TOPICS.join(', ')}`),
  message: z
    .string({ message: sayContact('writeMessage').en })
    .trim()
    .min(MESSAGE_MIN, sayContact('messageTooShort').en)
    .max(MESSAGE_MAX, sayContact('messageTooLong').en),
  locale: z.enum(['en', 'id']).default('en').describe('The language the visitor wrote in (for the reply)'),
});

export const contactMessageResponse = envelope(z.object({ received: z.literal(true) }));
