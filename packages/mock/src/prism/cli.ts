/**
 * `npm run mock`: Prism serving the static examples of the OpenAPI document on
 * http://127.0.0.1:4012/v1; 4010 is the reference server's port and 4011 ocs-mock's.
 * `--port` and `--host` (or `PORT` and `HOST`) choose where, checked as ocs-mock checks them.
 *
 * `--help` exits 0. A mistake is one line on stderr and exit code 2; a failure (the port is
 * taken, Prism is missing...) one line and exit code 1, with the stack under `--debug` or
 * `OCS_DEBUG=1`.
 */
import { createServer } from 'node:net';
import { CliFailure, echoed, exitOnError, listenProblem, parseCommandLine } from '@ocs/server/cli-kit';
import { listenFlags } from '../server/listen-flags.ts';
import { defaultPrismPort, startPrism } from './start-prism.ts';

const usage = `Usage: npm run mock -- [options]

Prism serving the OpenAPI document's static examples (no state: the stateful mock is
ocs-mock). The reference server defaults to port 4010, ocs-mock to 4011 and this to 4012.

Options:
  --port <n>         port, 0 to 65535 (default PORT, else 4012; 0 picks a free one)
  --host <address>   interface (default HOST, else 127.0.0.1)
  --debug            print the stack of an internal error (or OCS_DEBUG=1)
  -h, --help         this help

From the repository's root: npm run mock -- --port <n>.`;

async function main(argv: string[]): Promise<void> {
  // The root's script passes its arguments on after `--`; without it npm would keep
  // `--port` for itself and pass `0` alone.
  const { values } = parseCommandLine(
    {
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        debug: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    },
    'npm run mock takes options only (npm run mock -- --port <n>)',
  );
  if (values.help) {
    console.log(usage);
    return;
  }
  // ocs-mock's checks: a flag beats the variable, and the variable is checked only when used.
  const { port, host } = listenFlags(values, { port: defaultPrismPort, variables: true });
  // Prism answers a port in use with its whole usage text: say it in one line instead.
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new CliFailure(`port ${port} on ${echoed(host)} is in use; choose another with PORT=<n>.`)
          : listenProblem(error, port, host),
      ),
    );
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
  const mock = await startPrism({ port, host, log: (line) => console.log(line) });
  // Before the address is printed: whoever reads it may stop us at once, and a signal that
  // came before the handler ended this process by default, without closing Prism. (Prism ends
  // with this process however it ends, start-prism.ts; the handler closes it in order.)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      mock.close().then(() => process.exit(0), fail);
    });
  }
  console.log(
    `\nOCS examples mock (Prism) at ${mock.url}\nTry: curl -H 'Authorization: Bearer ocs_test' ${mock.url}/campaigns\n`,
  );
}

/** `npm run mock`'s end on an error (cli-kit). */
const fail = (error: unknown): never => exitOnError('npm run mock', 'npm run mock -- --help', error);

for (const event of ['uncaughtException', 'unhandledRejection'] as const) process.on(event, fail);
await main(process.argv.slice(2)).catch(fail);
