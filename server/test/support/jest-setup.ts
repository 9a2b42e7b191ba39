import type * as Argon2 from 'argon2';
import type * as PlaceIndexModule from '../../src/geo/place-index';

// Per-project settings that jest only accepts here when several projects run together.
jest.setTimeout(30_000);

// The bundled places' index comes from the file the global setup wrote, as a built server's comes from its build's,
// unless a test names another file.
jest.mock('../../src/geo/place-index', () => {
  const actual = jest.requireActual<typeof PlaceIndexModule>('../../src/geo/place-index');
  return {
    ...actual,
    openPlaceIndex: (...[log, file, places]: Parameters<typeof actual.openPlaceIndex>) =>
      actual.openPlaceIndex(log, file ?? process.env.KABARI_TEST_PLACE_INDEX, places),
  };
});

// Passwords are hashed at argon2's lowest cost in the server's tests (the parameters asked for are kept, and checked
// in test/auth/passwords.test.ts). A run hashes about 330 passwords and checks about 190: 12 CPU-seconds at the real
// 19 MiB and 2 passes (24 ms each), a third of one at the lowest cost (0.6 ms). A hash carries its parameters, so the
// checks are real either way; the end-to-end tests run the built server at full cost.
jest.mock('argon2', () => {
  const actual = jest.requireActual<typeof Argon2>('argon2');
  return {
    ...actual,
    hash: jest.fn((password: string, options: Argon2.HashOptions) =>
      actual.hash(password, { ...options, memoryCost: 1024, timeCost: 1 }),
    ),
  };
});
