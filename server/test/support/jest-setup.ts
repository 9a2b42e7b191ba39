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
