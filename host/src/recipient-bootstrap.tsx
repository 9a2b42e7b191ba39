import { StrictMode, startTransition, type ComponentType } from 'react';
import type { ApiSchema } from '@kabari/shared/api/api-types';
import { lightFederationNames } from '@kabari/shared/config/federation-names';
import { checkRuntimeConfig, fetchRuntimeConfigData } from '@kabari/shared/config/runtime-config-check';
import { localeFromPath } from '@kabari/shared/i18n/locale';
import commonEn from '@kabari/shared/i18n/common.en.json';
import commonId from '@kabari/shared/i18n/common.id.json';
import { yieldToBrowser } from './app/yield-to-browser';
import { recipientPageOf } from './lib/recipient-routes';

/**
 * What the server rendered the page with: its address, its link, what a plain form did, and on the consent overview
 * the step it showed.
 */
type RecipientPageData = ApiSchema<'RecipientPageData'> & { overview?: ApiSchema<'OverviewPageView'> };

/** What a recipient's page is given: its address and, when the server rendered it for its link, that link. */
interface RecipientPageProps extends Partial<Pick<RecipientPageData, 'link' | 'failure' | 'shared' | 'overview'>> {
  location: { pathname: string; search: string };
}

/** What the server rendered the page with (server/src/web/recipient-pages.ts): hydration must start from it. */
function serverData(): RecipientPageProps | null {
  const block = document.getElementById('recipient-data');
  if (!block?.textContent) return null;
  try {
    // The server checked it against the schema before writing it; the address is checked again as the one thing
    // hydration cannot start without.
    const data = JSON.parse(block.textContent) as Partial<RecipientPageData>;
    if (typeof data.pathname !== 'string' || typeof data.search !== 'string') return null;
    const { link, failure, shared, overview } = data;
    return { location: { pathname: data.pathname, search: data.search }, link, failure, shared, overview };
  } catch {
    return null;
  }
}

/** The element the server put the page's HTML in (recipient shells, prerender-entry.tsx). */
export const recipientPageId = 'recipient-page';

// webpack's own Module Federation (see the host's webpack.config.js): the share scope this build provides React in.
declare const __webpack_init_sharing__: (scope: string) => Promise<void>;
declare const __webpack_share_scopes__: { default: unknown };

interface LightContainer {
  init(shareScope: unknown): Promise<void> | void;
  get(module: string): Promise<() => unknown>;
}

/**
 * remote-share's light container, `light/remoteEntry.js` beside the manifest the server's runtime configuration
 * names (a remote may be redeployed alone, or move to a CDN).
 */
async function lightContainerUrl(): Promise<string> {
  // Checked without zod, which would add ~5 KB (brotli) to a page a relative opens on whatever phone they have.
  const { remotes } = checkRuntimeConfig(await fetchRuntimeConfigData());
  return new URL('light/remoteEntry.js', new URL(remotes.share, window.location.href)).toString();
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`${src} could not be loaded`));
    document.head.append(script);
  });
}

/** One exposed page of remote-share, its React being this page's (the share scope's singleton). */
async function loadSharePage(exposed: string): Promise<ComponentType<RecipientPageProps>> {
  // The global name the light container declares (apps.js, remote-share/webpack.config.js).
  const lightContainerName = lightFederationNames.share;
  if (!lightContainerName) throw new Error('apps.js names no light container for remote-share');
  await loadScript(await lightContainerUrl());
  const container = (window as unknown as Record<string, LightContainer | undefined>)[lightContainerName];
  if (!container) throw new Error(`${lightContainerName} did not load`);
  await __webpack_init_sharing__('default');
  await container.init(__webpack_share_scopes__.default);
  const factory = await container.get(`./${exposed}`);
  const loaded = factory() as { default?: ComponentType<RecipientPageProps> };
  if (!loaded.default) throw new Error(`remote-share/${exposed} has no page`);
  return loaded.default;
}

/**
 * The remote could not be loaded: the page's HTML stays (its forms work without script), and a note says the rest
 * of the page did not load, with a reload.
 */
function showUnavailable(container: HTMLElement): void {
  const texts = localeFromPath(window.location.pathname) === 'id' ? commonId : commonEn;
  const notice = document.createElement('section');
  notice.className = 'remote-unavailable';
  notice.setAttribute('role', 'alert');
  const title = document.createElement('h2');
  title.textContent = texts.remoteUnavailable.title;
  const text = document.createElement('p');
  text.textContent = texts.remoteUnavailable.description;
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'button button--primary';
  retry.textContent = texts.retry;
  retry.addEventListener('click', () => window.location.reload());
  notice.append(title, text, retry);
  container.before(notice);
}

async function start() {
  const container = document.getElementById(recipientPageId);
  const exposed = recipientPageOf(window.location.pathname);
  if (!container || !exposed) return;
  try {
    // React DOM and the page load side by side; each starts up in a task of its own, and hydration in a third: on a
    // slow phone no one of them holds the main thread for long (Total Blocking Time).
    const reactDom = import('react-dom/client');
    const Page = await loadSharePage(exposed);
    await yieldToBrowser();
    const { hydrateRoot } = await reactDom;
    await yieldToBrowser();
    const { pathname, search } = window.location;
    const props = serverData() ?? { location: { pathname, search } };
    // As a transition, hydration is time-sliced: the phone stays responsive while the server's HTML is on screen.
    startTransition(() => {
      hydrateRoot(
        container,
        <StrictMode>
          <Page {...props} />
        </StrictMode>,
        { onRecoverableError: (error) => console.warn('[kabari] hydration', error) },
      );
    });
  } catch (error) {
    console.error('[kabari] the recipient page could not load', error);
    showUnavailable(container);
  }
}

void start();
