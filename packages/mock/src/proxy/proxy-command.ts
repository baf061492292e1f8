/**
 * `ocs-mock proxy --target <base-url>`: a contract-checking proxy in front of a deployment.
 * Every request is sent on and its answer given back unchanged; each request or answer that
 * breaks the OpenAPI document is reported in a line naming the operation, and a summary
 * (requests, violations by operation) is printed at exit (Ctrl-C or SIGTERM).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { debugging, echoed, firstLine, listenProblem, parseCommandLine, UsageError } from '@ocs/server/cli-kit';
import { listenOriginOf } from '../core/listen-address.ts';
import { listenFlags } from '../server/listen-flags.ts';
import { Contract } from './contract.ts';
import { type Exchange, forward, type Target } from './forward.ts';
import { operationLabel, Tally } from './tally.ts';

export const proxyUsage = `Usage: ocs-mock proxy --target <base-url> [options]

Forwards every request to a deployment of the API and reports each request and answer that
breaks the OpenAPI document (undocumented status, body not matching its schema, missing
required header, unknown path), naming the operation. A summary is printed at exit (Ctrl-C).

Options:
  --target <url>     the deployment, e.g. https://api.example.com or http://127.0.0.1:4010;
                     a path is kept (https://example.com/api sends /v1/x to /api/v1/x)
  --port <n>         port, 0 to 65535 (default 4013; 0 picks a free one)
  --host <address>   interface (default 127.0.0.1)
  --quiet            print violations and the summary only (not a line per request)
  --debug            print the stack of an internal error (or OCS_DEBUG=1)
  -h, --help         this help
  --version          the version`;

export const defaultProxyPort = 4013;

export async function proxy(argv: string[], version: string): Promise<void> {
  const { values } = parseCommandLine(
    {
      args: argv,
      options: {
        target: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        quiet: { type: 'boolean', default: false },
        // ocs-mock's switch (its --help lists it), read by debugging(): accepted here too.
        debug: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', default: false },
      },
    },
    'ocs-mock proxy takes options only',
  );
  if (values.help) {
    console.log(proxyUsage);
    return;
  }
  if (values.version) {
    console.log(version);
    return;
  }
  if (!values.target) throw new UsageError('proxy needs --target <base-url>, e.g. --target http://127.0.0.1:4010.');
  const target = targetOption(values.target);
  // ocs-mock's own checks: an empty --host would listen on every interface.
  const { port, host } = listenFlags(values, { port: defaultProxyPort, variables: false });

  const contract = new Contract();
  const tally = new Tally();
  const server = createServer((request, response) => {
    forward(contract, target, request, response).then(
      (exchange) => {
        tally.add(exchange);
        report(exchange, values.quiet);
      },
      (error: unknown) => {
        if (!response.headersSent) response.writeHead(500).end();
        console.log(`proxy error: ${firstLine(error)}`);
        if (debugging(process.argv) && error instanceof Error && error.stack) console.error(error.stack);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenProblem(error, port, host)));
    server.listen(port, host, () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  const at = `${listenOriginOf(host) ?? `http://${host}`}:${bound}/v1`;
  console.log(`OCS contract proxy at ${at} -> ${shownTarget(target)} (Ctrl-C for the summary)`);

  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
  server.closeAllConnections();
  server.close();
  // Exit once the summary is written: fetch's idle keep-alive sockets to the target would
  // otherwise hold the process for seconds after Ctrl-C.
  await new Promise<void>((resolve) => process.stdout.write(`${tally.summary()}\n`, () => resolve()));
  process.exit(0);
}

/**
 * `--target`: the deployment's base URL, with or without `/v1`, under a path prefix or not
 * (`https://example.com/api/v1` sends `/v1/campaigns` to `/api/v1/campaigns`). Credentials in
 * it are refused rather than dropped: each request carries its own `Authorization` (the API
 * key), which the proxy passes on, and a login beside it would have to replace it. So is a
 * query or fragment, which no request would keep.
 */
export function targetOption(given: string): Target {
  const parsed = URL.parse(given);
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new UsageError(`--target must be an http(s) URL, got '${echoed(given)}'.`);
  }
  if (parsed.username || parsed.password) {
    throw new UsageError(
      "--target must carry no user or password: send the API key in each request's Authorization header, which the proxy passes on.",
    );
  }
  if (parsed.search || parsed.hash) {
    throw new UsageError(`--target must be a base URL without a query or fragment, got '${echoed(given)}'.`);
  }
  // The base URL with or without /v1: requests keep their own /v1 path, under the target's prefix.
  const prefix = parsed.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { origin: parsed.origin, prefix };
}

/** `http://host` or `http://host/api`, as the banner shows the target. */
function shownTarget(target: Target): string {
  return `${target.origin}${target.prefix}`;
}

/** One write per exchange, so that its lines stay together whatever else is printed. */
function report(exchange: Exchange, quiet: boolean): void {
  const what = `${exchange.method} ${exchange.path} -> ${exchange.status ?? 'no answer'}`;
  const operation = operationLabel(exchange);
  const verdict = !exchange.underContract ? '  passed through unchecked' : exchange.violations.length ? '' : '  ok';
  const lines = quiet ? [] : [`${operation}  ${what}${verdict}`];
  for (const violation of exchange.violations) {
    lines.push(`VIOLATION ${violation.operationId ?? operation} ${violation.side}: ${violation.message}  [${what}]`);
  }
  if (lines.length > 0) console.log(lines.join('\n'));
}
