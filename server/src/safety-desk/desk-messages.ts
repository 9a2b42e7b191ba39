import { messagesOf } from '../lib/messages';

/** The safety desk's texts in both languages (server/src/i18n, section safetyDesk). */
export const sayDesk = messagesOf('safetyDesk');
