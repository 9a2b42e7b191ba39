import { isValidEmail } from '@kabari/shared/validation/email';

// The same rules as the server (server/src/routes/contact/schemas.ts): the form says what is wrong
// before sending, the server has the last word.
export const contactTopics = ['question', 'billing', 'privacy', 'misuse', 'other'] as const;
export type ContactTopic = (typeof contactTopics)[number];

export const NAME_MAX = 100;
export const MESSAGE_MIN = 10;
export const MESSAGE_MAX = 5000;

export interface ContactDraft {
  name: string;
  email: string;
  topic: ContactTopic | '';
  message: string;
}

export type ContactField = keyof ContactDraft;

export type ContactFieldError =
  | 'nameRequired'
  | 'nameTooLong'
  | 'nameOneLine'
  | 'emailRequired'
  | 'emailInvalid'
  | 'topicRequired'
  | 'messageRequired'
  | 'messageTooShort'
  | 'messageTooLong';

export type ContactErrors = Partial<Record<ContactField, ContactFieldError>>;

export const emptyDraft: ContactDraft = { name: '', email: '', topic: '', message: '' };

/** Every problem of the draft, by field (inputs are trimmed, as the server does). */
export function validateContact(draft: ContactDraft): ContactErrors {
  const errors: ContactErrors = {};
  const name = draft.name.trim();
  if (!name) errors.name = 'nameRequired';
  else if (name.length > NAME_MAX) errors.name = 'nameTooLong';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  else if (/[\u0000-\u001f\u007f]/.test(name)) errors.name = 'nameOneLine';

  const email = draft.email.trim();
  if (!email) errors.email = 'emailRequired';
  else if (!isValidEmail(email) || email.length > 254) errors.email = 'emailInvalid';

  if (!draft.topic) errors.topic = 'topicRequired';

  const message = draft.message.trim();
  if (!message) errors.message = 'messageRequired';
  else if (message.length < MESSAGE_MIN) errors.message = 'messageTooShort';
  else if (message.length > MESSAGE_MAX) errors.message = 'messageTooLong';
  return errors;
}
