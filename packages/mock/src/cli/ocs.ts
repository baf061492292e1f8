/**
 * `npx ocs <command>`: the local tools of `@ocs/mock` for webhooks, `listen` (events
 * forwarded to a receiver on this machine) and `trigger` (one event made to happen).
 *
 * `--help` and `--version` exit 0. A mistake is one line on stderr and exit code 2; a failure
 * (the server is down, refuses...) one line and exit code 1, with the stack under `--debug`
 * or `OCS_DEBUG=1`. Ctrl-C ends `listen` with exit code 0 once its webhook slots are back
 * and the deliveries it was forwarding answered (a second Ctrl-C quits without that wait, and
 * a third gives up on the slots not back yet, with exit code 130); it stops `trigger` after
 * the step under way, saying what was done, with exit code 130.
 */
import { readFileSync } from 'node:fs';
import { echoed, exitOnError, optionsEnd, UsageError } from '@ocs/server/cli-kit';
import type { CommandIo } from './command-io.ts';
import { Interrupted } from './interruption.ts';
import { listen } from './listen.ts';
import { trigger } from './trigger.ts';

const usage = `Usage: ocs <command> [options]

Webhooks of the Outreach Campaign Service on your machine, against ocs-mock or the
reference server (started with --allow-insecure-webhooks).

Commands:
  listen --forward-to <url>     forward prospect_response events to a local receiver
  trigger prospect_response     make one happen (a simulated reply in the sandbox)

Run ocs <command> --help for its options. Both read OCS_BASE_URL and OCS_API_KEY.

Options:
  -h, --help     this help
  --version      the version
  --debug        print the stack of an internal error (or OCS_DEBUG=1)`;

const commands: Record<string, (argv: string[], io: CommandIo) => Promise<void>> = {
  listen,
  trigger,
};

async function main(argv: string[]): Promise<void> {
  // `--debug` is this tool's switch among the options only: after `--` it is an operand, for
  // the command (`ocs trigger -- --debug` names an event), as parseCommandLine reads it.
  const end = optionsEnd(argv);
  const args = [...argv.slice(0, end).filter((arg) => arg !== '--debug'), ...argv.slice(end)];
  // A `--` before the command ends this tool's options: what follows is the command (`ocs -- listen`).
  if (args[0] === '--') args.shift();
  const [first, ...rest] = args;
  // No command is a mistake (one line, exit code 2), as for ocs-server: only --help prints the usage.
  if (first === undefined) throw new UsageError('which command? listen or trigger.');
  if (first === '-h' || first === '--help') {
    console.log(usage);
    return;
  }
  if (first === '--version') {
    console.log(packageVersion());
    return;
  }
  // Own names only: `ocs constructor` ran Object.prototype's member and exited 0.
  const command = Object.hasOwn(commands, first) ? commands[first] : undefined;
  if (!command) {
    throw new UsageError(
      first.startsWith('-')
        ? `unknown option ${echoed(first)}.`
        : `unknown command '${echoed(first)}'; the commands are listen and trigger.`,
    );
  }
  await command(rest, { out: (line) => console.log(line), version: packageVersion() });
}

function fail(error: unknown): never {
  // Ctrl-C before the work was done: what was and was not done, and the shell's code for it.
  if (error instanceof Interrupted) {
    process.stderr.write(`ocs: ${error.message}\n`);
    process.exit(130);
  }
  return exitOnError('ocs', 'ocs --help', error);
}

for (const event of ['uncaughtException', 'unhandledRejection'] as const) process.on(event, fail);

await main(process.argv.slice(2)).then(() => process.exit(0), fail);

/** The package's version, read at run time (`../../package.json` from src/cli/ and dist/cli/). */
function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}
