#!/usr/bin/env node
import { prefetchPgliteArtifacts } from '../store/sql/pglite-artifacts.ts';

const argv = process.argv.slice(2);
const given = (flag: string) => argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
// `serve` on PGlite (as options.ts chooses: --data-dir beats DATABASE_URL): PGlite's module
// and bundle are read and compiled while the server's own modules load (decision 0016). Not
// for the short commands, which a running server may answer without opening PGlite at all.
const onPglite = !given('--database-url') && (given('--data-dir') || !process.env.DATABASE_URL);
if (argv[0] === 'serve' && onPglite && !given('--help')) prefetchPgliteArtifacts();
const { report, run } = await import('./cli.ts');

// Anything thrown outside a command's own handling is still one line (the stack with --debug),
// never a dump of the bundled source around the throw.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    process.exitCode = report(error, argv);
    process.exit();
  });
}

await run(argv);
