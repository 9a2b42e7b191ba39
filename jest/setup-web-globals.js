// jsdom lacks what react-router 7 and antd expect from a browser.
const { TextEncoder, TextDecoder } = require('node:util');

if (typeof globalThis.TextEncoder === 'undefined') globalThis.TextEncoder = TextEncoder;
if (typeof globalThis.TextDecoder === 'undefined') globalThis.TextDecoder = TextDecoder;

if (typeof window !== 'undefined' && !window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  });
}

// jsdom has no MessageChannel; antd's form schedules its watchers on one. A macro task is all it needs,
// and Node's own MessageChannel would keep jest alive.
if (typeof globalThis.MessageChannel === 'undefined') {
  globalThis.MessageChannel = class MessageChannel {
    constructor() {
      const port1 = { onmessage: null, postMessage: (data) => setTimeout(() => port2.onmessage?.({ data })) };
      const port2 = { onmessage: null, postMessage: (data) => setTimeout(() => port1.onmessage?.({ data })) };
      this.port1 = port1;
      this.port2 = port2;
    }
  };
}

// jsdom cannot compute pseudo-elements' styles and says so on every antd modal; the element's own
// style is what antd's scroll-bar measure falls back to anyway.
if (typeof window !== 'undefined') {
  const getComputedStyle = window.getComputedStyle.bind(window);
  window.getComputedStyle = (element) => getComputedStyle(element);
}

// jsdom does not scroll; the host scrolls to the top on navigation. Tests that care replace it.
if (typeof window !== 'undefined') window.scrollTo = () => {};
