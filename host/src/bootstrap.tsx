import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initI18n } from '@kabari/shared/i18n/create-i18n';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import './i18n/host-namespace';
import { installHostApi } from './features/api/host-api';
import { ensureRemotesConfigured } from './features/federation/federation-remotes';
import { App } from './app/app';

async function start() {
  // Before any page can load the API client (see @kabari/shared/api/api-setup).
  installHostApi();
  await initI18n(localeFromPath(window.location.pathname));
  // Start fetching the runtime configuration now; a failure shows the fallback on remote pages.
  ensureRemotesConfigured().catch((error: unknown) => console.error('[kabari] runtime configuration', error));
  const container = document.getElementById('root');
  if (!container) throw new Error('No #root element');
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  // A prerendered page is hydrated: the layout at once, the page when its remote has loaded
  // (it sits in a Suspense boundary, whose server HTML React keeps until then).
  if (container.firstElementChild) {
    hydrateRoot(container, app, {
      onRecoverableError: (error) => console.warn('[kabari] hydration', error),
    });
  } else {
    container.textContent = '';
    createRoot(container).render(app);
  }
}

void start();
