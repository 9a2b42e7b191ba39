// What remote-billing gives the host: the register result screen and the dialogs of the modal routes
// (registered in host/src/lib/route-dialogs.ts).
module.exports = {
  exposes: {
    './register-result-page': './src/features/register-result/register-result-page.tsx',
    './success-modal': './src/features/success/success-modal.tsx',
    './my-subscription-dialog': './src/features/my-subscription/my-subscription-dialog.tsx',
    './cancel-subscription-dialog': './src/features/cancel-subscription/cancel-subscription-dialog.tsx',
    './subscription-expired-dialog': './src/features/subscription-expired/subscription-expired-dialog.tsx',
  },
};
