import '@testing-library/jest-dom';

// antd's tabs measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// A form filled key by key re-renders antd at every key: on a busy 2-core machine (npm test builds the apps while
// jest runs) such a test has taken over jest's default 5 s. A test that hangs still fails.
jest.setTimeout(30_000);
