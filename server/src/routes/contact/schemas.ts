import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { inputMessage } from '../../lib/messages';
import { CONTACT_TOPICS } from '../../db/column-values';
import { emailField } from '../auth/schemas';

// The same limits as the form (remote-search/src/features/contact/contact-form-validation.ts).
export const NAME_MAX = 100;
export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

// No line breaks or other control characters: the name goes into the email's subject line.
const SINGLE_LINE = /^[^\p{Cc}]*$/u;

export const contactMessageBody = z.object({
  name: z
    .string({ message: inputMessage('common.fillInName') })
    .trim()
    .min(1, inputMessage('common.fillInName'))
    .max(NAME_MAX, inputMessage('contact.nameTooLong', { max: NAME_MAX }))
    .regex(SINGLE_LINE, inputMessage('contact.nameOneLine')),
  email: emailField.describe('Where the reply goes'),
  topic: z
    .enum(CONTACT_TOPICS, { message: inputMessage('contact.chooseTopic') })
    .describe(`One of ${CONTACT_TOPICS.join(', ')}`),
  message: z
    .string({ message: inputMessage('contact.writeMessage') })
    .trim()
    .min(MESSAGE_MIN, inputMessage('contact.messageTooShort', { min: MESSAGE_MIN }))
    .max(MESSAGE_MAX, inputMessage('contact.messageTooLong', { max: MESSAGE_MAX })),
  locale: z.enum(['en', 'id']).default('en').describe('The language the visitor wrote in (for the reply)'),
});

export const contactMessageResponse = envelope(z.object({ received: z.literal(true) }));
