/**
 * The host a listener could not start on, repeated in the failure's one line as other values
 * given are: escaped and cut short (`echoed`). listenHost lets a name of up to 253
 * characters through (a name DNS can hold), which then no lookup finds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliFailure, listenProblem } from '../../src/node/cli-kit.ts';
import { echoedLength } from '../../src/node/echoed-value.ts';
import { oneLine, requireBuild, runCli, stopAll } from './processes.ts';

let scratch: string;
beforeAll(() => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), 'ocs-listen-host-'));
});
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** 199 characters, each label as long as DNS allows, under a top-level name that never resolves (RFC 6761). */
const unfindable = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.invalid`;
const cut = `${unfindable.slice(0, echoedLength)}…`;

describe('listenProblem', () => {
  it.each([
    ['ENOTFOUND', `cannot listen on host '${cut}' (ENOTFOUND); choose another with --host.`],
    ['EADDRNOTAVAIL', `cannot listen on host '${cut}' (EADDRNOTAVAIL); choose another with --host.`],
    ['EADDRINUSE', `port 4010 on ${cut} is in use; choose another with --port (0 picks a free one).`],
  ])('%s names the host cut short', (code, message) => {
    const failure = listenProblem(Object.assign(new Error(code), { code }), 4010, unfindable);
    expect(failure).toBeInstanceOf(CliFailure);
    expect((failure as CliFailure).message).toBe(message);
  });
});

describe('ocs-server serve --host <a name no lookup finds>', () => {
  it('fails in one line naming the host cut short, exit code 1', async () => {
    const result = await runCli(['serve', '--port', '0', '--host', unfindable, '--data-dir', join(scratch, 'data')]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      `ocs-server: cannot listen on host '${cut}' (ENOTFOUND); choose another with --host.`,
    );
  });
});
