// What remote-search gives the host: the home page (number search and FAQ) and the public pages.
// Each page is its own entry, so a visitor loads only the page they open.
module.exports = {
  exposes: {
    './home-page': './src/app/home-page.tsx',
    './about-us-page': './src/features/about-us/about-us-page.tsx',
    './faqs-page': './src/features/faqs/faqs-page.tsx',
    './tracking-phone-number-page': './src/features/tracking-phone-number/tracking-phone-number-page.tsx',
    './privacy-policy-page': './src/features/privacy-policy/privacy-policy-page.tsx',
    './terms-of-use-page': './src/features/terms-of-use/terms-of-use-page.tsx',
    './cookies-policy-page': './src/features/cookies-policy/cookies-policy-page.tsx',
    './intellectual-property-page': './src/features/intellectual-property/intellectual-property-page.tsx',
    './unsubscribe-and-refund-page': './src/features/unsubscribe-and-refund/unsubscribe-and-refund-page.tsx',
    './contact-us-page': './src/features/contact-us/contact-us-page.tsx',
    './ok-page': './src/features/status-pages/ok-page.tsx',
    './not-found-page': './src/features/status-pages/not-found-page.tsx',
  },
};
