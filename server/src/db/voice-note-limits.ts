// What a voice note may be. The database's check constraints hold these numbers, so they live with the database
// (a table never imports a domain), and the upload's checks read the same ones.

/** The longest voice note taken: 60 seconds, and the half second a recorder stopped at the limit may add. */
export const VOICE_NOTE_MAX_MS = 60_500;
/** The largest voice note taken, in bytes: a minute of speech in any format a browser records fits. */
export const VOICE_NOTE_MAX_BYTES = 1024 * 1024;
/** The requester's short text beside the player. */
export const VOICE_NOTE_TEXT_MAX_LENGTH = 200;
