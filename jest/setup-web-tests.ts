import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// antd's tabs measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

// A form filled key by key re-renders antd at every key: on a busy 2-core machine (npm test builds the apps while
// jest runs) such a test has taken over jest's default 5 s. A test that hangs still fails.
jest.setTimeout(30_000);

// Testing Library waits 1 s by default for what a test awaits (waitFor, findBy…). Toasts and dialogs load their antd
// modules on first use, and with the machine kept busy (npm test runs these tests beside Playwright, from a fresh
// clone's cold transform cache) one such load took over a second: the toast test failed once in four busy runs. A
// wait that never comes true still fails, after 5 s.
configure({ asyncUtilTimeout: 5_000 });

// antd writes its styles into <style> elements as components mount (CSS-in-JS). jsdom matches every one of those
// rules against the page each time a test asks what is visible or what a control is called: in a dialog test that
// was half the time (sign-up: 21 s, 6 s without). The tests read the DOM, roles and names, never antd's styling,
// so its styles are not written here; what the pages look like is checked in real browsers (e2e/).
jest.mock('@rc-component/util/lib/Dom/dynamicCSS', () => ({
  ...jest.requireActual('@rc-component/util/lib/Dom/dynamicCSS'),
  updateCSS: () => document.createElement('style'),
  injectCSS: () => document.createElement('style'),
  removeCSS: () => undefined,
}));
