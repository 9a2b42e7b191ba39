// What remote-search gives the host: the home page (number search and FAQ).
module.exports = { exposes: { './home-page': './src/features/home/home-page.tsx' } };
