// Typed route paths (English form; the Indonesian twin is the same path under /id).
export const routePaths = {
  home: '/',
  ok: '/200',
  notFound: '/404',
  aboutUs: '/about-us',
  contactUs: '/contact-us',
  privacyPolicy: '/privacy-policy',
  termsOfUse: '/terms-of-use',
  faqs: '/faqs',
  trackingPhoneNumber: '/tracking-phone-number',
  unsubscribeAndRefund: '/unsubscribe-and-refund',
  cookiesPolicy: '/cookies-policy',
  intellectualProperty: '/intellectual-property',
  register: '/register',
  enterLink: '/enter-link',
  locationFailed: '/location-failed',
  share: '/share',
  /** The recipient's consent overview ("Who can see me"): every request to a proven number or email address. */
  myRequests: '/my-requests',
  dashboard: '/dashboard',
  successModal: '/dashboard/modules/SuccessModal',
  mySubscription: '/dashboard/modules/MySubscription',
  subscriptionExpiredModal: '/dashboard/modules/subscriptionExpiredModal',
  cancelMySubscriptionModal: '/dashboard/modules/cancleMySubscriptionModal',
  /** The operator's console: its remote routes the paths below it (sign-in, reports/:id, the queues). */
  operator: '/operator',
} as const;

export type RouteName = keyof typeof routePaths;
