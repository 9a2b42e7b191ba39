// What remote-dashboard gives the host: the subscriber's dashboard.
module.exports = { exposes: { './dashboard-page': './src/app/dashboard-page.tsx' } };
