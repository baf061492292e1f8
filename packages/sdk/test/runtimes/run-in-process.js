/**
 * The runtime checks as a program, for the runtimes that run one (Node, Deno, Bun): imports
 * `@ocs/sdk` and `@ocs/sdk/webhooks` as a user's code does (the package's `exports`, from
 * dist/), takes the input as its one argument (JSON) and prints one JSON line per check.
 *
 * Besides the verifier build the runtime resolves, it checks the Web Crypto build, imported
 * by path: the one a bundle for workers or the browser gets, on this runtime's Web Crypto.
 * Static imports only: Deno needs no read permission for them.
 */
import * as sdk from '@ocs/sdk';
import * as webhooks from '@ocs/sdk/webhooks';
import * as webBuild from '../../dist/webhooks/web.js';
import { runRuntimeChecks } from './checks.js';

const global = /** @type {{ Deno?: { args: string[] }, process?: { argv: string[] } }} */ (globalThis);
const [json = ''] = global.Deno?.args ?? global.process?.argv.slice(2) ?? [];

await runRuntimeChecks(
  sdk,
  [
    { label: 'resolved', url: import.meta.resolve('@ocs/sdk/webhooks'), module: webhooks },
    { label: 'web build', url: import.meta.resolve('../../dist/webhooks/web.js'), module: webBuild },
  ],
  JSON.parse(json),
  (line) => console.log(JSON.stringify(line)),
);
