// The pages of remote-search prerendered to HTML at build time (scripts/prerender.mjs).
import { definePrerenderPages } from '@kabari/shared/prerender/define-prerender';
import HomePage from './features/home/home-page';

export default definePrerenderPages({ '/': HomePage });
