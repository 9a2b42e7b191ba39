// The pages the bench measures with Lighthouse, and the network profiles it measures them under.
import { linkRoutes } from './recipient-links.mjs';

/** Lighthouse's default (slow 4G) and its regular 3G: a relative opening an SMS link on a weak connection. */
export const profileNames = ['default', '3g'];
/** @param {string} profile */
export const profileLabel = (profile) => (profile === '3g' ? 'regular 3G' : 'default profile');

/** The home page and the recipient's pages, each with its own budgets: measured with --runs under every profile. */
export const coreRoutes = ['/', ...Object.keys(linkRoutes), '/location-failed', '/share'];
/** The other public pages besides the home page, each also under /id. */
export const publicPages = [
  '/about-us',
  '/faqs',
  '/tracking-phone-number',
  '/privacy-policy',
  '/terms-of-use',
  '/cookies-policy',
  '/intellectual-property',
  '/unsubscribe-and-refund',
  '/contact-us',
  '/200',
  '/404',
];
/** Every public page but the English home (a core route), in both languages: measured with --public-runs. */
export const publicRoutes = [...publicPages, '/id/', ...publicPages.map((page) => `/id${page}`)];
