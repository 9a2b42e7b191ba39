// The one dependency map every app's Module Federation `shared` config is built from.
// Everything here is a singleton: two copies of React, the router, i18next, zustand or
// antd's style context at run time silently split hooks, contexts and stores.
const path = require('node:path');

const fs = require('node:fs');

// Read package.json directly: some packages' export maps do not expose it.
const rootPackage = (name) => {
  const file = path.join(__dirname, '..', 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
};

// antd is shared per entry point: sharing the whole library costs ~670 KB gzip on every page.
// Each key listed here is provided by every app (so the host's copy wins with 'loaded-first'),
// but loaded only by the pages that import it. A component a remote imports must be listed
// here, or it brings its own copy of antd's config context (lint enforces the list).
// A component only a remote imports (the dashboard's tabs) is still that remote's own copy, so
// the contexts that carry the theme are shared as modules of their own, matched wherever antd
// imports them by a relative path: the remote's copy then reads the host's ConfigProvider.
const antdContexts = ['config-provider/context', 'theme/context'];
const antdEntryPoints = [
  'alert',
  'app',
  'button',
  'checkbox',
  'config-provider',
  'descriptions',
  'drawer',
  'dropdown',
  'empty',
  'form',
  'input',
  'message',
  'modal',
  'pagination',
  'progress',
  'radio',
  'result',
  'select',
  'space',
  'spin',
  'steps',
  'table',
  'tabs',
  'tag',
  'tooltip',
  'typography',
];

const singleton = (name, version) => ({
  singleton: true,
  requiredVersion: `^${version}`,
  version,
});

function sharedDependencies() {
  const react = rootPackage('react');
  const reactDom = rootPackage('react-dom');
  const antd = rootPackage('antd');
  const shared = {
    react: singleton('react', react),
    'react/jsx-runtime': singleton('react', react),
    'react-dom': singleton('react-dom', reactDom),
    'react-dom/client': singleton('react-dom', reactDom),
    zustand: singleton('zustand', rootPackage('zustand')),
    'zustand/middleware': singleton('zustand', rootPackage('zustand')),
    i18next: singleton('i18next', rootPackage('i18next')),
    'react-i18next': singleton('react-i18next', rootPackage('react-i18next')),
    '@ant-design/cssinjs': singleton('@ant-design/cssinjs', rootPackage('@ant-design/cssinjs')),
    // Our own workspace package: stores, the API client, i18n helpers and the thin router re-export
    // (shared/src/routing/router.ts) must be one instance.
    '@kabari/shared/': { singleton: true, requiredVersion: false, version: rootPackage('@kabari/shared') },
  };
  for (const entry of antdEntryPoints) shared[`antd/es/${entry}`] = singleton('antd', antd);
  for (const context of antdContexts) {
    shared[`antd/es/${context}`] = { ...singleton('antd', antd), allowNodeModulesSuffixMatch: true };
  }
  return shared;
}

module.exports = { sharedDependencies, antdEntryPoints };
