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
  // Nothing prerendered to paint first (an app-only route).
  if (!root || !root.firstElementChild) return start();
  // A page that works as plain HTML until it is used (the home page: its text, links, questions and form fields)
  // asks for the app only on the visitor's first sign of use. A phone on a slow network then shows and scrolls the
  // page without the app's seconds of script work; the first touch, key, focus, mouse move or wheel starts it. An
  // address with a fragment (#log-in) asks the app for something at once, and so does a page already in use when
  // this script arrives (a field focused and typed into on a slow connection).
  var inUse = document.activeElement && document.activeElement !== document.body;
  if (document.currentScript.getAttribute('data-start') === 'on-first-use' && !window.location.hash && !inUse) {
    var uses = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'mousemove', 'wheel', 'hashchange'];
    var onUse = function () {
      for (var i = 0; i < uses.length; i++) window.removeEventListener(uses[i], onUse, true);
      start();
    };
    for (var j = 0; j < uses.length; j++) window.addEventListener(uses[j], onUse, { capture: true, passive: true });
    // The entry in the cache by the time it is wanted, fetched when the page has nothing more urgent to load.
    var prefetch = function () {
      var link = document.createElement('link');
      link.rel = 'prefetch';
      link.href = entry;
      document.head.appendChild(link);
    };
    if (document.readyState === 'complete') prefetch();
    else window.addEventListener('load', prefetch);
    return;
  }
  // A hidden tab paints nothing until shown.
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
