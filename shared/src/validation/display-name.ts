/** The longest display name (the name recipients see); the server's schemas hold the same limit. */
export const DISPLAY_NAME_MAX_LENGTH = 60;
