#!/usr/bin/env node
import { prefetchPgliteArtifacts } from '../store/sql/pglite-artifacts.ts';
import { optionsEnd } from './cli-kit.ts';
import { storeLocation } from './options.ts';

const argv = process.argv.slice(2);
/** The options, before any `--`: after it, `--data-dir` and `--help` are operands, as cli.ts reads them. */
const options = argv.slice(0, optionsEnd(argv));
/** A flag's value among the options, as `--flag value` or `--flag=value`; undefined when it is not given. */
const flag = (name: string) => {
  const at = options.findIndex((arg) => arg === name || arg.startsWith(`${name}=`));
  if (at < 0) return undefined;
  const arg = options[at] as string;
  return arg === name ? (options[at + 1] ?? '') : arg.slice(name.length + 1);
};
// `serve` on PGlite (the store options.ts chooses): PGlite's module and bundle are read and
// compiled while the server's own modules load (decision 0016). Not for the short commands,
// which a running server may answer without opening PGlite at all.
const onPglite = (() => {
  try {
    return !storeLocation({ 'database-url': flag('--database-url'), 'data-dir': flag('--data-dir') }).databaseUrl;
  } catch {
    return false; // both stores named: the command says so
  }
})();
const askedForHelp = flag('--help') !== undefined || options.includes('-h');
if (argv[0] === 'serve' && onPglite && !askedForHelp) prefetchPgliteArtifacts();
const { report, run } = await import('./cli.ts');

// Node prints a warning as a paragraph; one line instead. pg's notice that `sslmode=require`
// will mean less in its next major version is for pg's users, not this tool's.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.message.startsWith('SECURITY WARNING: The SSL modes')) return;
  process.stderr.write(`ocs-server: warning: ${warning.message.split('\n')[0]}\n`);
});

// Anything thrown outside a command's own handling is still one line (the stack with --debug),
// never a dump of the bundled source around the throw.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    process.exitCode = report(error, argv);
    process.exit();
  });
}

await run(argv);
