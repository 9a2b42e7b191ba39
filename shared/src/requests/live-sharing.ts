/**
 * While live sharing, the recipient's page sends its position at most this often: the requester's map needs no
 * more, and the requester's map reads the same figure to tell how late a position is.
 */
export const LIVE_POSITION_EVERY_MS = 10_000;
