import { startTransition, StrictMode } from 'react';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import { yieldToBrowser } from './app/yield-to-browser';
import './i18n/host-namespace';
import { installHostApi } from './features/api/host-api';
import { ensureRemotesConfigured } from './lib/federation-remotes';

/**
 * Start-up runs in a few short tasks rather than one long one, so the browser can answer a tap or
 * paint in between: i18next, then the app's modules, then React DOM and hydration. The "eager"
 * imports are in this chunk already (no request); they only put off running those modules.
 */
async function start() {
  // Before any page can load the API client (see @kabari/shared/api/api-setup).
  installHostApi();
  await initI18n(localeFromPath(window.location.pathname));
  // Start fetching the runtime configuration now; a failure shows the fallback on remote pages.
  ensureRemotesConfigured().catch((error: unknown) => console.error('[kabari] runtime configuration', error));
  await yieldToBrowser();
  const { App } = await import(/* webpackMode: "eager" */ './app/app');
  await yieldToBrowser();
  const { createRoot, hydrateRoot } = await import(/* webpackMode: "eager" */ 'react-dom/client');
  const container = document.getElementById('root');
  if (!container) throw new Error('No #root element');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A prerendered page is hydrated: the layout at once, the page when its remote has loaded
  // (it sits in a Suspense boundary, whose server HTML React keeps until then). As a transition,
  // hydration is time-sliced: React yields to the browser every few milliseconds instead of
  // holding the main thread for the whole page, while the server HTML stays on screen.
  if (container.firstElementChild) {
    startTransition(() => {
      hydrateRoot(container, app, {
        onRecoverableError: (error) => console.warn('[kabari] hydration', error),
      });
    });
  } else {
    container.textContent = '';
    createRoot(container).render(app);
  }
}

void start();
