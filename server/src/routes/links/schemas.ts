import { z } from 'zod';
import { localeField } from '../numbers/schemas';

export const createLinkBody = z.object({
  title: z
    .string({ message: 'Please enter a title' })
    .trim()
    .min(1, 'Please enter a title')
    .max(80, 'The title can be at most 80 characters')
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'The title must be on one line'),
  locale: localeField.describe("The consent page's language (/enter-link or /id/enter-link)"),
});
