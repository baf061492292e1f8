#!/usr/bin/env node
// `npx ocs-mock`: the built standalone mock (`npm run build -w @ocs/mock` rebuilds it), run with
// V8's code cache; a start that listened keeps its cache for the next (src/server/compile-cache.ts).
// CommonJS, as the bundle is: an ES module here would start Node's ES module loader, 3 ms.
'use strict';
const { join } = require('node:path');
const { loadWithCompileCache } = require('../dist/server/compile-cache.cjs');

const cli = loadWithCompileCache(join(__dirname, '..', 'dist', 'server', 'cli.cjs'));
cli.exports.startCli().then((listening) => {
  if (listening) cli.keep();
});
