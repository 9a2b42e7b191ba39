// The first script a page runs (see start-after-first-paint-plugin.js): it starts the app's entry script only
// once the prerendered page is on screen, so the text paints before hydration takes the main thread. The entry
// is preloaded meanwhile, so waiting costs no download time. Plain ES5: it runs before any polyfill would.
/* global document, window, requestAnimationFrame */
(function () {
  var entry = document.currentScript && document.currentScript.getAttribute('data-entry');
  if (!entry) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var script = document.createElement('script');
    script.src = entry;
    document.head.appendChild(script);
  }
  var root = document.getElementById('root');
  // Nothing prerendered to paint first (an app-only route), or a hidden tab (it paints nothing until shown).
  if (!root || !root.firstElementChild) return start();
  // A page that works as plain HTML until it is used (the home page: its text, links, FAQ and form fields) asks
  // for the app only on the visitor's first sign of use. A phone on a slow network then shows the page and
  // scrolls it without the app's seconds of script work; the first touch, key, focus or mouse move starts it.
  // An address with a fragment (#log-in) asks the app for something at once, and a page already in use when this
  // script arrives (a field focused and typed into on a slow connection) needs it now.
  var inUse = document.activeElement && document.activeElement !== document.body;
  if (root.querySelector('[data-start="on-intent"]') && !window.location.hash && !inUse) {
    var intents = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'mousemove', 'wheel', 'hashchange'];
    var onIntent = function () {
      for (var i = 0; i < intents.length; i++) window.removeEventListener(intents[i], onIntent, true);
      start();
    };
    for (var j = 0; j < intents.length; j++) {
      window.addEventListener(intents[j], onIntent, { capture: true, passive: true });
    }
    return;
  }
  if (document.visibilityState === 'hidden') return start();
  var types = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes;
  if (types && types.indexOf('paint') !== -1) {
    // Reported once the first contentful frame has been presented.
    var observer = new PerformanceObserver(function (list) {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      start();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    // The second frame begins after the first has been produced.
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        setTimeout(start, 0);
      });
    });
  }
  // Whatever happens to the paint (a stylesheet that never arrives), the app starts.
  setTimeout(start, 3000);
})();
