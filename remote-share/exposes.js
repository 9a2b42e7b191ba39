// What remote-share gives the host: the recipient's pages (no account, opened from an SMS or email).
module.exports = {
  exposes: {
    './enter-link-page': './src/features/consent/enter-link-page.tsx',
    './share-page': './src/features/share/share-page.tsx',
    './location-failed-page': './src/features/location-failed/location-failed-page.tsx',
    './my-requests-page': './src/features/my-requests/my-requests-page.tsx',
  },
};
