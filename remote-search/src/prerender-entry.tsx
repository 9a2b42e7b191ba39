// The pages of remote-search prerendered to HTML at build time (scripts/prerender.mjs), each with its
// own title, description and language alternates (usePageHead).
import { definePrerenderPages } from '@kabari/shared/prerender/define-prerender';
import { publicPages } from './public-pages';

export default definePrerenderPages(publicPages);
