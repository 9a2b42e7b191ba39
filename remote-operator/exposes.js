// What remote-operator gives the host: the operator's console, one page that routes within /operator/... itself
// (host/src/lib/route-table.ts loads it only there).
module.exports = {
  exposes: {
    './operator-console': './src/app/operator-console.tsx',
  },
};
