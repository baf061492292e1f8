#!/usr/bin/env node
import { run } from './cli.ts';

await run(process.argv.slice(2));
