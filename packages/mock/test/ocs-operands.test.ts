/**
 * `ocs` (the built bin) and where its options end: `--debug` is the tool's switch among the
 * options, wherever they are, and after `--` an operand like any other, handed to the command
 * (POSIX getopt, node:util's parseArgs and so parseCommandLine read `--` so). It used to be
 * taken out of the command line wherever it stood. None of these reaches a server.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ocsBin, requireBuilds, run } from './support/local-processes.ts';

beforeAll(requireBuilds);

/** A server nothing answers on (the discard port): a command that got that far fails, exit code 1. */
const nowhere = ['--base-url', 'http://127.0.0.1:9', '--api-key', 'k'];

/** Runs `ocs`, checks it said one line on stderr with exit code `code`, and returns that line. */
async function said(args: string[], code: number): Promise<string> {
  const result = await run(ocsBin, args);
  expect(result.code, args.join(' ').slice(0, 200)).toBe(code);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr.slice(0, 500)).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  return lines[0] as string;
}

describe('--debug after --', () => {
  it('reaches trigger as the event it names', async () => {
    expect(await said(['trigger', '--', '--debug'], 2)).toBe(
      "ocs: unknown event '--debug'; the API sends one event, prospect_response. Run ocs --help for usage.",
    );
  });

  it('is an argument too many for trigger prospect_response, said before any server is asked', async () => {
    expect(await said(['trigger', 'prospect_response', ...nowhere, '--', '--debug'], 2)).toBe(
      "ocs: unexpected argument '--debug'. Run ocs --help for usage.",
    );
  });

  it('is an argument listen does not take, said before any server is asked', async () => {
    expect(await said(['listen', '--forward-to', 'http://127.0.0.1:9/hooks', ...nowhere, '--', '--debug'], 2)).toBe(
      "ocs: unexpected argument '--debug' (ocs listen takes options only). Run ocs --help for usage.",
    );
  });
});

describe('--debug among the options', () => {
  it('is still the switch, before the command or after it, and no command sees it', async () => {
    for (const args of [
      ['--debug', 'trigger', 'nope'],
      ['trigger', '--debug', 'nope'],
      ['trigger', 'nope', '--debug', '--', 'x'],
    ]) {
      expect(await said(args, 2), args.join(' ')).toBe(
        "ocs: unknown event 'nope'; the API sends one event, prospect_response. Run ocs --help for usage.",
      );
    }
  });
});

describe('an unknown command', () => {
  it('is repeated escaped and cut short, one line however long it is', async () => {
    const line = await said([`\u001b[31m${'x'.repeat(100_000)}`], 2);
    expect(line).toMatch(
      /^ocs: unknown command '\\u001b\[31mx+…'; the commands are listen and trigger\. Run ocs --help for usage\.$/,
    );
    expect(line.length).toBeLessThan(200);
  });
});

describe('no command', () => {
  it('is a mistake: one line naming the commands, exit code 2, as ocs-server says it', async () => {
    expect(await said([], 2)).toBe('ocs: which command? listen or trigger. Run ocs --help for usage.');
    expect(await said(['--debug'], 2)).toBe('ocs: which command? listen or trigger. Run ocs --help for usage.');
    expect(await said(['--'], 2)).toBe('ocs: which command? listen or trigger. Run ocs --help for usage.');
  });

  it('after a leading --, the command is the next argument (it was "unknown option --")', async () => {
    expect(await said(['--', 'lisen'], 2)).toBe(
      "ocs: unknown command 'lisen'; the commands are listen and trigger. Run ocs --help for usage.",
    );
    expect(await said(['--', 'trigger', '--', '--debug'], 2)).toBe(
      "ocs: unknown event '--debug'; the API sends one event, prospect_response. Run ocs --help for usage.",
    );
  });

  it('--help prints the usage on stdout, exit code 0', async () => {
    const result = await run(ocsBin, ['--help']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/^Usage: ocs <command>/);
  });
});
