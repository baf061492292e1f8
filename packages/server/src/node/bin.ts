#!/usr/bin/env node
import { prefetchPgliteArtifacts } from '../store/sql/pglite-artifacts.ts';

const argv = process.argv.slice(2);
const given = (flag: string) => argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
// On PGlite (as options.ts chooses: --data-dir beats DATABASE_URL), its module and bundle are
// read and compiled while the server's own modules load (decision 0016); a wrong guess only
// costs a read nobody uses.
const onPglite = !given('--database-url') && (given('--data-dir') || !process.env.DATABASE_URL);
if (onPglite && !given('--help') && !given('--version')) prefetchPgliteArtifacts();
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
