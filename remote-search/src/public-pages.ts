import type { ComponentType } from 'react';
import { routePaths } from '@kabari/shared/routing/route-paths';
import HomePage from './app/home-page';
import AboutUsPage from './features/about-us/about-us-page';
import FaqsPage from './features/faqs/faqs-page';
import TrackingPhoneNumberPage from './features/tracking-phone-number/tracking-phone-number-page';
import PrivacyPolicyPage from './features/privacy-policy/privacy-policy-page';
import TermsOfUsePage from './features/terms-of-use/terms-of-use-page';
import CookiesPolicyPage from './features/cookies-policy/cookies-policy-page';
import IntellectualPropertyPage from './features/intellectual-property/intellectual-property-page';
import UnsubscribeAndRefundPage from './features/unsubscribe-and-refund/unsubscribe-and-refund-page';
import ContactUsPage from './features/contact-us/contact-us-page';
import OkPage from './features/status-pages/ok-page';
import NotFoundPage from './features/status-pages/not-found-page';

/**
 * Every page of remote-search by its English path: what the build prerenders and what the standalone
 * QA shell serves. The host maps the same paths to the exposed modules (exposes.js) in its route table.
 */
export const publicPages: Record<string, ComponentType> = {
  [routePaths.home]: HomePage,
  [routePaths.aboutUs]: AboutUsPage,
  [routePaths.faqs]: FaqsPage,
  [routePaths.trackingPhoneNumber]: TrackingPhoneNumberPage,
  [routePaths.privacyPolicy]: PrivacyPolicyPage,
  [routePaths.termsOfUse]: TermsOfUsePage,
  [routePaths.cookiesPolicy]: CookiesPolicyPage,
  [routePaths.intellectualProperty]: IntellectualPropertyPage,
  [routePaths.unsubscribeAndRefund]: UnsubscribeAndRefundPage,
  [routePaths.contactUs]: ContactUsPage,
  [routePaths.ok]: OkPage,
  [routePaths.notFound]: NotFoundPage,
};
