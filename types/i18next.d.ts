// i18n keys are typed from the English files: a missing or misspelt key fails the type-check.
import 'i18next';
import type common from '../shared/src/i18n/common.en.json';
import type host from '../host/src/i18n/host.en.json';
import type search from '../remote-search/src/i18n/search.en.json';
import type searchPrivacy from '../remote-search/src/i18n/search-privacy.en.json';
import type searchTerms from '../remote-search/src/i18n/search-terms.en.json';
import type searchCookies from '../remote-search/src/i18n/search-cookies.en.json';
import type searchTracking from '../remote-search/src/i18n/search-tracking.en.json';
import type searchAboutUs from '../remote-search/src/i18n/search-about-us.en.json';
import type searchIntellectualProperty from '../remote-search/src/i18n/search-intellectual-property.en.json';
import type searchUnsubscribeAndRefund from '../remote-search/src/i18n/search-unsubscribe-and-refund.en.json';
import type searchContactUs from '../remote-search/src/i18n/search-contact-us.en.json';
import type searchSignUp from '../remote-search/src/i18n/search-sign-up.en.json';
import type payments from '../shared/src/payments/payments.en.json';
import type dashboard from '../remote-dashboard/src/i18n/dashboard.en.json';
import type requests from '../shared/src/requests/requests.en.json';
import type requestsLookup from '../shared/src/requests/requests-lookup.en.json';
import type displayName from '../shared/src/validation/display-name.en.json';
import type dashboardRequests from '../remote-dashboard/src/i18n/dashboard-requests.en.json';
import type dashboardLive from '../remote-dashboard/src/i18n/dashboard-live.en.json';
import type billing from '../remote-billing/src/i18n/billing.en.json';
import type share from '../remote-share/src/i18n/share.en.json';
import type operator from '../remote-operator/src/i18n/operator.en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      common: typeof common;
      host: typeof host;
      search: typeof search;
      'search-privacy': typeof searchPrivacy;
      'search-terms': typeof searchTerms;
      'search-cookies': typeof searchCookies;
      'search-tracking': typeof searchTracking;
      'search-about-us': typeof searchAboutUs;
      'search-intellectual-property': typeof searchIntellectualProperty;
      'search-unsubscribe-and-refund': typeof searchUnsubscribeAndRefund;
      'search-contact-us': typeof searchContactUs;
      'search-sign-up': typeof searchSignUp;
      payments: typeof payments;
      dashboard: typeof dashboard;
      requests: typeof requests;
      'requests-lookup': typeof requestsLookup;
      'display-name': typeof displayName;
      'dashboard-requests': typeof dashboardRequests;
      'dashboard-live': typeof dashboardLive;
      billing: typeof billing;
      share: typeof share;
      operator: typeof operator;
    };
  }
}
