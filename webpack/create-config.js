// One webpack config factory for the host and every remote (Module Federation 2).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { container, DefinePlugin } = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { federationNames, lightFederationNames } = require('../apps');
const { sharedDependencies } = require('./shared-dependencies');
const { StartAfterFirstPaintPlugin } = require('./start-after-first-paint-plugin');

const repoRoot = path.join(__dirname, '..');
// Every app imports the shared package and the rules it shares with the server from source.
const resolve = {
  extensions: ['.tsx', '.ts', '.js', '.mjs'],
  alias: { '@kabari/shared': path.join(repoRoot, 'shared/src'), '@kabari/rules': path.join(repoRoot, 'rules/src') },
};
const injectExternalRuntimePlugin = path.join(
  repoRoot,
  'node_modules/@module-federation/inject-external-runtime-core-plugin/dist/index.js',
);

/**
 * The remotes' container names (and their light containers'), from apps.js (the one list), as the browser code
 * reads them (shared/src/config/federation-names.ts); jest.web-project.js gives the tests the same.
 */
function appListPlugin() {
  return new DefinePlugin({
    __KABARI_FEDERATION_NAMES__: JSON.stringify(federationNames),
    __KABARI_LIGHT_FEDERATION_NAMES__: JSON.stringify(lightFederationNames),
  });
}

/**
 * @param {object} app
 * @param {string} app.dir          the app's folder
 * @param {string} app.federationName  Module Federation container name
 * @param {number} app.port         dev server port (standalone shell)
 * @param {Record<string,string>} [app.exposes]  modules a remote exposes
 * @param {string} app.entry        browser entry (index.ts → import('./bootstrap'))
 * @param {string} app.title        page title of the standalone shell
 * @param {string} [app.publicPath] where the built files are served from (default 'auto')
 * @param {Record<string, object>} [app.shared]  the shared modules (default: every singleton of shared-dependencies.js)
 * @param {string} [app.entryName]  the entry's name (default 'main')
 * @param {string} [app.htmlFilename]  the built HTML page (default index.html)
 * @param {boolean} [app.webAppManifest]  link the site's manifest and Home Screen icon (the host, which serves them)
 * @param {boolean} [app.clean]  empty the dist folder first (default true; false for a second build into it)
 * @param {'enhanced' | 'light'} [app.container]  'light': webpack's own Module Federation container and sharing
 *   (a few KB) instead of the federation runtime (~25 KB gzip), for the recipient's pages (host/webpack.config.js)
 * @param {string} [app.distFolder]  the build's folder inside the app's dist (default: dist itself)
 */
function createConfig(app) {
  return (_env, argv) => {
    const production = argv.mode === 'production';
    const apiTarget = process.env.KABARI_API_URL ?? 'http://localhost:8080';
    const isRemote = Boolean(app.exposes);
    const light = app.container === 'light';
    return {
      mode: production ? 'production' : 'development',
      context: app.dir,
      // A light remote's only entry is its container (remoteEntry.js).
      entry: app.entry ? { [app.entryName ?? 'main']: app.entry } : {},
      devtool: production ? false : 'eval-cheap-module-source-map',
      target: 'web',
      output: {
        path: path.join(app.dir, 'dist', app.distFolder ?? ''),
        // 'auto' lets a remote be served from any origin or prefix: chunks load next to remoteEntry.js.
        // The host is served at the site root, where deep links like /id/enter-link need absolute URLs.
        // In development each app is served at its dev server's root, standalone pages included.
        publicPath: app.publicPath ?? (production ? 'auto' : `http://127.0.0.1:${app.port}/`),
        filename: production ? '[name].[contenthash:10].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        assetModuleFilename: production ? 'assets/[name].[contenthash:10][ext]' : 'assets/[name][ext]',
        uniqueName: app.federationName,
        clean: app.clean ?? true,
      },
      resolve,
      module: {
        rules: [
          swcRule(production),
          // The host's CSS is a file linked from the HTML, so prerendered pages paint styled. A remote's
          // CSS travels with its chunks (and is inlined into its prerendered pages).
          {
            test: /\.css$/,
            use: [production && !isRemote ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'],
          },
          { test: /\.(png|svg|jpe?g|gif|webp|woff2?)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        appListPlugin(),
        light
          ? new container.ModuleFederationPlugin({
              name: app.federationName,
              filename: isRemote ? 'remoteEntry.js' : undefined,
              exposes: app.exposes,
              shared: app.shared ?? sharedDependencies(),
            })
          : new ModuleFederationPlugin({
              name: app.federationName,
              filename: isRemote ? 'remoteEntry.js' : undefined,
              exposes: app.exposes,
              // The host declares no remotes here: it registers them at run time from /runtime-config.json.
              remotes: {},
              shared: app.shared ?? sharedDependencies(),
              shareStrategy: 'loaded-first',
              manifest: isRemote ? { fileName: 'mf-manifest.json' } : false,
              dts: false,
              // The federation runtime ships once, with the host (~25 KB gzip saved per remote). A remote's
              // standalone QA shell (development) keeps its own, since no host is there to provide it.
              // Set by hand rather than with `provideExternalRuntime`, which resolves the plugin's CommonJS
              // build and so ships a second (CommonJS) copy of the whole runtime: ~80 KB raw on every page.
              runtimePlugins: isRemote ? [] : [injectExternalRuntimePlugin],
              experiments: {
                ...(isRemote ? { externalRuntime: production } : {}),
                // Browser only: leaves out the runtime's Node.js loading code.
                optimization: { target: 'web' },
              },
            }),
        ...(production && !isRemote ? [new MiniCssExtractPlugin({ filename: '[name].[contenthash:10].css' })] : []),
        ...(app.entry
          ? [
              new HtmlWebpackPlugin({
                template: path.join(__dirname, 'index.html'),
                title: app.title,
                filename: app.htmlFilename ?? 'index.html',
                webAppManifest: Boolean(app.webAppManifest),
                chunks: [app.entryName ?? 'main'],
                scriptLoading: 'defer',
                // Keep comments: the server stitches prerendered pages in at <!--kabari-page--> markers.
                minify: production ? { collapseWhitespace: true, removeComments: false, minifyCSS: true } : false,
              }),
            ]
          : []),
        // The entry script runs once the (prerendered) page has painted, not before.
        ...(app.entry ? [new StartAfterFirstPaintPlugin({ hashed: production })] : []),
      ],
      optimization: {
        minimize: production,
        minimizer: [
          new MinimizerPlugin({ minify: MinimizerPlugin.swcMinify, minimizerOptions: { compress: { passes: 2 } } }),
          new MinimizerPlugin({ test: /\.css$/, minify: MinimizerPlugin.lightningCssMinify }),
        ],
        moduleIds: production ? 'deterministic' : 'named',
        chunkIds: production ? 'deterministic' : 'named',
      },
      performance: { hints: false },
      stats: production ? 'errors-warnings' : 'minimal',
      devServer: {
        port: app.port,
        host: '127.0.0.1',
        historyApiFallback: true,
        hot: false,
        liveReload: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // Standalone shells talk to the real API server.
        proxy: [
          {
            context: ['/api', '/runtime-config.json', '/dev', '/healthz'],
            target: apiTarget,
            changeOrigin: true,
            // The API refuses writes from other origins. This dev server's own pages are the app's, so their
            // requests reach the API as from its origin; any other page's keep theirs and are refused.
            onProxyReq: (proxyRequest, request) => {
              const origin = request.headers.origin;
              if (origin === `http://127.0.0.1:${app.port}` || origin === `http://localhost:${app.port}`) {
                proxyRequest.setHeader('origin', new URL(apiTarget).origin);
              }
            },
          },
        ],
        client: { overlay: { warnings: false, errors: true } },
      },
    };
  };
}

const swcRule = (production) => ({
  test: /\.[cm]?tsx?$/,
  exclude: /node_modules/,
  use: {
    loader: 'swc-loader',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
        target: 'es2020',
      },
    },
  },
});

/**
 * The build-time prerender of an app: its `src/prerender-entry.tsx` bundled for Node, with the CSS it
 * imports extracted to a file that the prerendered HTML inlines. No federation: it runs alone, once.
 */
function createPrerenderConfig(app) {
  return {
    mode: 'production',
    context: app.dir,
    target: 'node',
    entry: { entry: './src/prerender-entry.tsx' },
    devtool: false,
    output: {
      path: path.join(app.dir, 'dist/.prerender'),
      filename: '[name].js',
      library: { type: 'commonjs2' },
      clean: true,
    },
    resolve,
    module: {
      rules: [
        swcRule(true),
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(png|svg|jpe?g|gif|webp|woff2?)$/, type: 'asset/resource' },
      ],
    },
    plugins: [appListPlugin(), new MiniCssExtractPlugin({ filename: '[name].css' })],
    optimization: { minimize: false, splitChunks: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

module.exports = { createConfig, createPrerenderConfig };
