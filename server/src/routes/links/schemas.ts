import { z } from 'zod';
import { sayRequests } from '../../requests/request-messages';
import { localeField } from '../numbers/schemas';

export const createLinkBody = z.object({
  title: z
    .string({ message: sayRequests('enterTitle').en })
    .trim()
    .min(1, sayRequests('enterTitle').en)
    .max(80, sayRequests('titleTooLong').en)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, sayRequests('titleOneLine').en),
  locale: localeField.describe("The consent page's language (/enter-link or /id/enter-link)"),
});
