// The pages of remote-share prerendered to HTML at build time (scripts/prerender.mjs): the page a
// relative opens from an SMS must paint before any script arrives.
import { definePrerenderPages } from '@kabari/shared/prerender/define-prerender';
import EnterLinkPage from './features/consent/enter-link-page';
import LocationFailedPage from './features/location-failed/location-failed-page';
import SharePage from './features/share/share-page';

export default definePrerenderPages({
  '/enter-link': EnterLinkPage,
  '/share': SharePage,
  '/location-failed': LocationFailedPage,
});
