// What a link's recipient sees of its request. `deleted`: the requester deleted the request (or their account);
// only opt-out and report still work.
export const LINK_STATES = [
  'open',
  'sharing',
  'declined',
  'stopped',
  'withdrawn',
  'cancelled',
  'expired',
  'deleted',
] as const;
export type LinkState = (typeof LINK_STATES)[number];
