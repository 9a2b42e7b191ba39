// What remote-dashboard gives the host: the subscriber's dashboard.
module.exports = { exposes: { './dashboard-page': './src/features/overview/dashboard-page.tsx' } };
