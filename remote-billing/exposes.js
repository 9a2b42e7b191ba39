// What remote-billing gives the host: the register result screen (and, later, the subscription dialogs).
module.exports = { exposes: { './register-result-page': './src/features/register-result/register-result-page.tsx' } };
