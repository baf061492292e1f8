#!/usr/bin/env node
// `npx ocs-mock`: the built standalone mock (`npm run build -w @ocs/mock` rebuilds it), run with
// V8's code cache; a start that listened keeps its cache for the next (dist/server/compile-cache.js).
import { loadWithCompileCache } from '../dist/server/compile-cache.js';

const cli = loadWithCompileCache(new URL('../dist/server/cli.cjs', import.meta.url));
if (await cli.exports.startCli()) cli.keep();
