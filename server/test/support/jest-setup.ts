// Per-project settings that jest only accepts here when several projects run together.
jest.setTimeout(30_000);
