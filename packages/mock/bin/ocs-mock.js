#!/usr/bin/env node
// `npx ocs-mock`: the built standalone mock (`npm run build -w @ocs/mock` rebuilds it).
import '../dist/server/cli.js';
