#!/usr/bin/env node
import { report, run } from './cli.ts';

const argv = process.argv.slice(2);
// Anything thrown outside a command's own handling is still one line (the stack with --debug),
// never a dump of the bundled source around the throw.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    process.exitCode = report(error, argv);
    process.exit();
  });
}

await run(argv);
