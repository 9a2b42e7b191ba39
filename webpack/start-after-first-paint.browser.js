// The first script a page runs (see start-after-first-paint-plugin.js): it starts the app's entry script only
// once the prerendered page is on screen, so the text paints before hydration takes the main thread. The entry
// is preloaded meanwhile, so waiting costs no download time. Plain ES5: it runs before any polyfill would.
/* global document, window, requestAnimationFrame */
(function () {
  var script = document.currentScript;
  var entry = script && script.getAttribute('data-entry');
  if (!entry) return;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var app = document.createElement('script');
    app.src = entry;
    document.head.appendChild(app);
  }

  /** Runs `task` once the first contentful frame is on screen (and after 3 s whatever happens to the paint). */
  function afterFirstPaint(task) {
    var done = false;
    function once() {
      if (done) return;
      done = true;
      task();
    }
    var types = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes;
    if (types && types.indexOf('paint') !== -1) {
      // Reported once the first contentful frame has been presented.
      var observer = new PerformanceObserver(function (list) {
        if (!list.getEntriesByName('first-contentful-paint').length) return;
        observer.disconnect();
        once();
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      // The second frame begins after the first has been produced.
      requestAnimationFrame(function () {
        requestAnimationFrame(function () {
          setTimeout(once, 0);
        });
      });
    }
    // A stylesheet that never arrives must not keep the task from running.
    setTimeout(once, 3000);
  }

  /** Starts the app on the visitor's first touch, key, focus, mouse move or wheel, or a followed #fragment link. */
  function startOnFirstUse() {
    var uses = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'mousemove', 'wheel', 'hashchange'];
    var lastX = null;
    var lastY = null;
    function onUse(event) {
      if (event.type === 'mousemove') {
        // A mouse move that moved nothing is the browser's own, sent after a layout under a resting pointer. The
        // first real move in a new document can report no movement too, so a change of place also counts.
        var moved =
          event.movementX ||
          event.movementY ||
          (lastX !== null && (event.clientX !== lastX || event.clientY !== lastY));
        lastX = event.clientX;
        lastY = event.clientY;
        if (!moved) return;
      }
      for (var i = 0; i < uses.length; i++) window.removeEventListener(uses[i], onUse, true);
      start();
    }
    for (var j = 0; j < uses.length; j++) window.addEventListener(uses[j], onUse, { capture: true, passive: true });
    // The entry in the cache by the time it is wanted: fetched at the lowest priority once the page is on screen,
    // so it takes nothing from what the first paint needs.
    afterFirstPaint(function () {
      var link = document.createElement('link');
      link.rel = 'prefetch';
      link.href = entry;
      document.head.appendChild(link);
    });
  }

  /**
   * A prerendered form marked data-submit-after-start (the home page's number search) works before the app has
   * started: its submit button, disabled in the HTML for a browser without script, is turned on, and a submit is held
   * (marked data-submit-pending, the form aria-busy) and starts the app, which sends it again once it has taken the
   * form over and removed the mark (shared/src/ui/use-submit-before-start.ts).
   */
  function holdEarlySubmits() {
    var forms = document.querySelectorAll('form[data-submit-after-start]');
    for (var i = 0; i < forms.length; i++) {
      var buttons = forms[i].querySelectorAll('button[type="submit"]');
      for (var k = 0; k < buttons.length; k++) buttons[k].disabled = false;
    }
    function hold(event) {
      var form = event.target;
      if (!form || !form.hasAttribute || !form.hasAttribute('data-submit-after-start')) return;
      event.preventDefault();
      form.setAttribute('data-submit-pending', '');
      form.setAttribute('aria-busy', 'true');
      start();
    }
    window.addEventListener('submit', hold, true);
  }
  holdEarlySubmits();

  var root = document.getElementById('root');
  // Nothing prerendered to paint first (an app-only route).
  if (!root || !root.firstElementChild) return start();
  // A page that works as plain HTML until it is used (the home page: its text, links, questions and form fields)
  // asks for the app only on the visitor's first sign of use: a phone on a slow network shows and scrolls the page
  // without the app's seconds of script work. An address with a fragment (#log-in) asks the app for something at
  // once, and so does a page already in use when this script arrives (a field typed into on a slow connection).
  var inUse = document.activeElement && document.activeElement !== document.body;
  if (script.getAttribute('data-start') === 'on-first-use' && !window.location.hash && !inUse) return startOnFirstUse();
  // A hidden tab paints nothing until shown.
  if (document.visibilityState === 'hidden') return start();
  afterFirstPaint(start);
})();
