import { z } from 'zod';
import { envelope } from '../../lib/envelope';
import { CONTACT_TOPICS } from '../../mail/contact-message';
import { emailField } from '../auth/schemas';

// The same limits as the form (remote-search/src/features/contact/contact-form-validation.ts).
export const NAME_MAX = 100;
export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

// No line breaks or other control characters: the name goes into the email's subject line.
const SINGLE_LINE = /^[^\p{Cc}]*$/u;

export const contactMessageBody = z.object({
  name: z
    .string({ message: 'Please fill in your name' })
    .trim()
    .min(1, 'Please fill in your name')
    .max(NAME_MAX, `The name is longer than ${NAME_MAX} characters`)
    .regex(SINGLE_LINE, 'The name must be on one line'),
  email: emailField.describe('Where the reply goes'),
  topic: z.enum(CONTACT_TOPICS, { message: `topic must be one of ${CONTACT_TOPICS.join(', ')}` }),
  message: z
    .string({ message: 'Please write your message' })
    .trim()
    .min(MESSAGE_MIN, `The message must have at least ${MESSAGE_MIN} characters`)
    .max(MESSAGE_MAX, `The message is longer than ${MESSAGE_MAX} characters`),
  locale: z.enum(['en', 'id']).default('en').describe('The language the visitor wrote in (for the reply)'),
});

export const contactMessageResponse = envelope(z.object({ received: z.literal(true) }));
