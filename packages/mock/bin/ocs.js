#!/usr/bin/env node
// `npx ocs`: the built webhook tools, listen and trigger (`npm run build -w @ocs/mock` rebuilds them).
import '../dist/cli/ocs.js';
