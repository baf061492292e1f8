#!/usr/bin/env node
// `npx ocs-server`: the built CLI (npm install builds it; `npm run build` rebuilds it).
import '../dist/node/bin.js';
