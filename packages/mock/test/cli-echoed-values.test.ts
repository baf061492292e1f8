/**
 * What the package's command-line tools repeat of a value given, as real processes (the built
 * `ocs-mock` and `ocs` bins): a mistake is one line that shows the value escaped and cut short
 * (`echoed`, cli-kit), however long the value; a value 100,000 characters long printed
 * 100,000 characters. None of these but the last reaches a server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type LocalServer,
  ocsBin,
  ocsMockBin,
  requireBuilds,
  run,
  startStandaloneMock,
  stopAll,
  watch,
} from './support/local-processes.ts';

beforeAll(requireBuilds);
afterEach(stopAll);

/** A pasted value: an escape sequence, then 100,000 characters. */
const long = `\u001b[31m${'x'.repeat(100_000)}`;
/** How `long` is repeated: escaped, and cut with a mark (echoedLength, 64 characters in all). */
const longEchoed = "'\\\\u001b\\[31mx{59}…'";
/** A well-formed API key, so that the commands get past the key's check to the value under test. */
const key = ['--api-key', 'ocs_test'];
/** A server nothing answers on (the discard port). */
const nowhere = 'http://127.0.0.1:9';

/** Runs a bin, checks it said one short line on stderr with exit code `code`, and returns that line. */
async function said(bin: string, args: string[], code: number, env: Record<string, string> = {}): Promise<string> {
  const result = await run(bin, args, env);
  const shown = args.map((arg) => arg.slice(0, 40)).join(' ');
  expect(result.code, shown).toBe(code);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr.slice(0, 500)).toHaveLength(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr.length, shown).toBeLessThan(400);
  return lines[0] as string;
}

describe('a value given, repeated in a mistake (exit code 2)', () => {
  it.each<[string, string, string[], RegExp]>([
    ['ocs-mock --seed', ocsMockBin, ['--seed', long], /^ocs-mock: --seed must be an integer .*, got LONG\. Run/],
    [
      'ocs listen --forward-to',
      ocsBin,
      ['listen', '--forward-to', long],
      /^ocs: --forward-to must be an http\(s\) URL, got LONG\. Run/,
    ],
    [
      'ocs listen --campaign',
      ocsBin,
      ['listen', '--forward-to', `${nowhere}/hooks`, '--campaign', long, ...key],
      /^ocs: --campaign must be a campaign ID \(a UUID\), got LONG\. Run/,
    ],
    [
      'ocs trigger --base-url',
      ocsBin,
      ['trigger', 'prospect_response', '--base-url', long, ...key],
      /^ocs: --base-url must be an http\(s\) URL, got LONG\. Run/,
    ],
    ['ocs trigger <event>', ocsBin, ['trigger', long], /^ocs: unknown event LONG; the API sends one event/],
    [
      'ocs trigger prospect_response <extra>',
      ocsBin,
      ['trigger', 'prospect_response', long],
      /^ocs: unexpected argument LONG\. Run/,
    ],
    [
      'ocs trigger --sentiment',
      ocsBin,
      ['trigger', 'prospect_response', '--sentiment', long],
      /^ocs: --sentiment must be positive, neutral or negative, got LONG\. Run/,
    ],
    [
      'ocs trigger --channel',
      ocsBin,
      ['trigger', 'prospect_response', '--channel', long],
      /^ocs: --channel must be email or linkedin, got LONG\. Run/,
    ],
    [
      'ocs-mock proxy --target',
      ocsMockBin,
      ['proxy', '--target', long],
      /^ocs-mock: --target must be an http\(s\) URL, got LONG\. Run/,
    ],
  ])('%s', async (_, bin, args, pattern) => {
    const line = await said(bin, args, 2);
    expect(line).toMatch(new RegExp(pattern.source.replace('LONG', longEchoed)));
  });

  it('ocs-mock proxy --target with a query: cut after its first 64 characters', async () => {
    const target = `${nowhere}/?q=${'y'.repeat(100_000)}`;
    const line = await said(ocsMockBin, ['proxy', '--target', target], 2);
    const kept = target.slice(0, 64);
    expect(line).toBe(
      `ocs-mock: --target must be a base URL without a query or fragment, got '${kept}…'. Run ocs-mock --help for usage.`,
    );
  });

  it('OCS_BASE_URL is named as what was wrong, not --base-url, and cut as a flag is', async () => {
    const line = await said(ocsBin, ['trigger', 'prospect_response', ...key], 2, { OCS_BASE_URL: long });
    expect(line).toMatch(new RegExp(`^ocs: OCS_BASE_URL must be an http\\(s\\) URL, got ${longEchoed}\\. Run`));
  });
});

describe('a value given, repeated in a failure (exit code 1)', () => {
  it('a base URL no server answers on is named cut short', async () => {
    const baseUrl = `${nowhere}/${'z'.repeat(100_000)}`;
    const line = await said(ocsBin, ['trigger', 'prospect_response', '--base-url', baseUrl, ...key], 1);
    expect(line).toBe(
      `ocs: cannot reach ${baseUrl.slice(0, 64)}… (listCampaigns): is the server running? Set --base-url or OCS_BASE_URL.`,
    );
  });
});

describe('ocs listen, ready', () => {
  let mock: LocalServer;
  beforeAll(async () => {
    mock = await startStandaloneMock();
  }, 60_000);
  afterAll(() => mock?.close());

  it('names the receiver as parsed, where fetch sends: a line break given in it is no line break in the line', async () => {
    const listen = watch(ocsBin, [
      'listen',
      '--forward-to',
      'http://127.0.0.1:9/hooks\n\u202e',
      '--base-url',
      mock.url,
      '--api-key',
      mock.apiKey,
    ]);
    const [line] = await listen.waitFor(/^Ready: .*$/m);
    expect(line).toMatch(/ to http:\/\/127\.0\.0\.1:9\/hooks%E2%80%AE$/);
    expect(await listen.stop('SIGINT')).toBe(0);
  }, 30_000);
});
