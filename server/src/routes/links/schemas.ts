import { z } from 'zod';
import { inputMessage } from '../../lib/messages';
import { localeField } from '../numbers/schemas';
import { voiceNoteField } from '../voice-notes/schemas';

export const createLinkBody = z.object({
  title: z
    .string({ message: inputMessage('requests.enterTitle') })
    .trim()
    .min(1, inputMessage('requests.enterTitle'))
    .max(80, inputMessage('requests.titleTooLong'))
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, inputMessage('requests.titleOneLine')),
  locale: localeField.describe("The consent page's language (/enter-link or /id/enter-link)"),
  voiceNote: voiceNoteField,
});
