/**
 * `ocs-server` refusing arguments it used to take (the built bin, as a real process): an
 * option that takes one value given twice, names longer than the API's bounds for such text,
 * empty or repeated `--scopes` items, an `--owner-name` with no owner, and values holding a
 * line break or another control character. Each is one line on stderr saying what to do,
 * exit code 2, nothing done; what a message repeats of a value is escaped and cut short, so
 * the line stays one line.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { oneLine, requireBuild, runCli, stopAll } from './processes.ts';

let work: string;
let dataDir: string;
beforeAll(() => {
  requireBuild();
  work = mkdtempSync(join(tmpdir(), 'ocs-cli-arguments-'));
  dataDir = join(work, 'data');
});
afterEach(stopAll);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const organizationId = '00000000-0000-4000-8000-000000000000';
const otherId = '00000000-0000-4000-8000-000000000001';
const closedPostgres = 'postgres://nobody@127.0.0.1:1/none';

/** Runs a mistake: exit code 2, nothing on stdout, one line ending with the pointer to --help. */
async function refused(args: string[]): Promise<string> {
  // A command taken (old behaviour: `serve` serving) is stopped after a while, and fails here.
  const result = await runCli(args, { timeoutMs: 20_000 });
  expect(result.code, args.join(' ').slice(0, 200)).toBe(2);
  expect(result.stdout).toBe('');
  const line = oneLine(result.stderr);
  expect(line).toMatch(/^ocs-server: .*Run ocs-server --help for usage\.$/);
  return line;
}

/** The organizations stored in `dataDir`. */
async function organizations(): Promise<Array<{ name: string }>> {
  const listed = await runCli(['org', 'list', '--json', '--data-dir', dataDir]);
  expect(listed.code).toBe(0);
  return JSON.parse(listed.stdout) as Array<{ name: string }>;
}

describe('an option that takes one value, given twice', () => {
  // Every single-valued option of every command, each time with values that are right on
  // their own: parseArgs kept the last one, unsaid (`--org A --org B` made a key for B).
  const twice: Array<[string, string[]]> = [
    ['--data-dir', ['org', 'list', '--data-dir', 'OTHER', '--data-dir', 'DATA']],
    ['--database-url', ['org', 'list', '--database-url', closedPostgres, '--database-url', closedPostgres]],
    ['--port', ['serve', '--port', '0', '--port', '0', '--data-dir', 'DATA']],
    ['--host', ['serve', '--port', '0', '--host', '127.0.0.1', '--host', 'localhost', '--data-dir', 'DATA']],
    [
      '--rate-limit-per-endpoint',
      ['serve', '--port', '0', '--rate-limit-per-endpoint', '5', '--rate-limit-per-endpoint=6', '--data-dir', 'DATA'],
    ],
    [
      '--rate-limit-total',
      ['serve', '--port', '0', '--rate-limit-total=5', '--rate-limit-total', '6', '--data-dir', 'DATA'],
    ],
    ['--name', ['org', 'create', '--name', 'Acme', '--name', 'Other', '--data-dir', 'DATA']],
    [
      '--owner-email',
      [
        'org',
        'create',
        '--name',
        'Acme',
        '--owner-email',
        'a@example.com',
        '--owner-email=b@example.com',
        '--data-dir',
        'DATA',
      ],
    ],
    [
      '--owner-name',
      [
        'org',
        'create',
        '--name',
        'Acme',
        '--owner-email',
        'a@example.com',
        '--owner-name',
        'A',
        '--owner-name',
        'B',
        '--data-dir',
        'DATA',
      ],
    ],
    ['--org', ['key', 'create', '--org', organizationId, '--org', otherId, '--data-dir', 'DATA']],
    ['--name', ['key', 'create', '--org', organizationId, '--name', 'ci', '--name', 'cd', '--data-dir', 'DATA']],
    [
      '--scopes',
      [
        'key',
        'create',
        '--org',
        organizationId,
        '--scopes',
        'leads:read',
        '--scopes',
        'crm:read',
        '--data-dir',
        'DATA',
      ],
    ],
    [
      '--expires-at',
      [
        'key',
        'create',
        '--org',
        organizationId,
        '--expires-at',
        '2090-01-01',
        '--expires-at',
        '2091-01-01',
        '--data-dir',
        'DATA',
      ],
    ],
    ['--campaign', ['deliveries', 'list', '--campaign', organizationId, '--campaign', otherId, '--data-dir', 'DATA']],
    [
      '--limit',
      ['deliveries', 'list', '--campaign', organizationId, '--limit', '5', '--limit', '6', '--data-dir', 'DATA'],
    ],
  ];

  it.each(twice)('%s twice: one line, exit code 2', async (option, args) => {
    const places: Record<string, string> = { DATA: dataDir, OTHER: join(work, 'other') };
    const line = await refused(args.map((arg) => places[arg] ?? arg));
    expect(line).toMatch(
      new RegExp(`^ocs-server: ${option} must be given once \\(it takes one value\\); keep the one you mean\\.`),
    );
  });

  it('nothing was made by them: no data directory, no organization', async () => {
    expect(existsSync(dataDir) || existsSync(join(work, 'other'))).toBe(false);
    expect(await organizations()).toEqual([]);
  });
});

describe('names longer than the API takes for such text', () => {
  it('org create --name of 100,000 characters is refused and not stored; 500 are taken', async () => {
    const line = await refused(['org', 'create', '--name', 'a'.repeat(100_000), '--data-dir', dataDir]);
    expect(line).toBe(
      'ocs-server: --name must be at most 500 characters (it has 100000); give a shorter name. Run ocs-server --help for usage.',
    );
    expect(await organizations()).toEqual([]);
    // Counted in characters, as the API counts: 500 emoji are 500 characters.
    for (const name of ['a'.repeat(500), '🚀'.repeat(500)]) {
      expect((await runCli(['org', 'create', '--name', name, '--data-dir', dataDir])).code).toBe(0);
    }
    expect((await organizations()).map((organization) => [...organization.name].length)).toEqual([500, 500]);
  });

  it.each([
    [
      '--owner-name',
      ['org', 'create', '--name', 'Acme', '--owner-email', 'a@example.com', '--owner-name', 'b'.repeat(201)],
      200,
      201,
    ],
    ['--owner-email', ['org', 'create', '--name', 'Acme', '--owner-email', `${'c'.repeat(309)}@example.com`], 320, 321],
    ['--name', ['key', 'create', '--org', organizationId, '--name', 'd'.repeat(501)], 500, 501],
  ] as const)('%s over its bound: one line, exit code 2', async (flag, args, max, has) => {
    const line = await refused([...args, '--data-dir', dataDir]);
    expect(line).toContain(`${flag} must be at most ${max} characters (it has ${has});`);
  });
});

describe('names that are not what was typed', () => {
  it.each([
    // Node reads each byte that is not UTF-8 (`Zoë` from a Latin-1 terminal) as U+FFFD.
    ['not UTF-8', 'Zo\ufffd', /--name is not UTF-8 text \(it holds U\+FFFD where bytes could not be read\)/],
    // Invisible characters alone name nothing, as white space alone.
    ['zero-width space alone', '\u200b', /org create needs a --name that is not blank\./],
    ['word joiner and soft hyphen alone', '\u2060\u00ad ', /org create needs a --name that is not blank\./],
  ])('a --name %s: one line, exit code 2', async (_, name, message) => {
    expect(await refused(['org', 'create', '--name', name, '--data-dir', dataDir])).toMatch(message);
  });

  it('--owner-name without --owner-email (it was dropped, unsaid): one line, exit code 2', async () => {
    expect(await refused(['org', 'create', '--name', 'Acme', '--owner-name', 'Ann', '--data-dir', dataDir])).toMatch(
      /--owner-name names the owner --owner-email adds: give --owner-email too, or leave both out\./,
    );
  });
});

describe('--scopes items', () => {
  const keyCreate = ['key', 'create', '--org', organizationId, '--data-dir'];
  it.each([
    [
      'an empty item and a repeat',
      'leads:read,,leads:read',
      /--scopes has an empty item \(two commas in a row, or one at an end\)/,
    ],
    ['a trailing comma', 'leads:read,', /--scopes has an empty item/],
    ['a leading comma', ',crm:read', /--scopes has an empty item/],
    [
      'a scope named twice',
      'leads:read, crm:read,leads:read',
      /--scopes names leads:read more than once; name each scope once\./,
    ],
  ])('%s: one line, exit code 2', async (_, scopes, message) => {
    expect(await refused([...keyCreate, dataDir, '--scopes', scopes])).toMatch(message);
  });
});

describe('values holding a line break or another control character', () => {
  it.each([
    ['an unknown command', ['fro\nb'], /unknown command 'fro\\nb'/],
    ['an unknown option', ['org', 'list', '--bo\ngus'], /unknown option --bo\\ngus\./],
    ['an extra argument', ['org', 'list', 'x\u202ey'], /org list takes no argument 'x\\u202ey'/],
    ['an ID', ['key', 'revoke', 'x\ny'], /key revoke <key-id> must be an API key ID \(a UUID\), got 'x\\ny'/],
    [
      '--org',
      ['key', 'create', '--org', `${organizationId}\n`],
      /--org must be an organization ID \(a UUID\), got '0{8}-.*\\n'/,
    ],
    ['--expires-at', ['key', 'create', '--org', organizationId, '--expires-at', '2090-01-01\r'], /got '2090-01-01\\r'/],
    [
      '--scopes',
      ['key', 'create', '--org', organizationId, '--scopes', 'leads:read\nx'],
      /Unknown scopes: leads:read\\nx\./,
    ],
    ['--owner-email', ['org', 'create', '--name', 'A', '--owner-email', 'a@example.com\n'], /got 'a@example\.com\\n'/],
    [
      '--limit',
      ['deliveries', 'list', '--campaign', organizationId, '--limit', '5\n'],
      /--limit must be an integer from 1 to 500, got '5\\n'/,
    ],
    // The URL parser drops line breaks: these listened on, or allowed, another host than written.
    [
      '--host',
      ['serve', '--port', '0', '--host', '127.0.0.1\nx'],
      /--host must be an interface's address or name .*got '127\.0\.0\.1\\nx'/,
    ],
    [
      '--cors-origin',
      ['serve', '--port', '0', '--cors-origin', 'http://a.example\nx'],
      /--cors-origin must be origins without line breaks or other control characters, got 'http:\/\/a\.example\\nx'/,
    ],
  ])('%s: escaped in one line, exit code 2', async (_, args, message) => {
    expect(await refused([...args, '--data-dir', dataDir])).toMatch(message);
  });

  it('a value of 5,000 characters is repeated cut short', async () => {
    const line = await refused(['f'.repeat(5000), '--data-dir', dataDir]);
    expect(line).toBe(`ocs-server: unknown command '${'f'.repeat(64)}…'. Run ocs-server --help for usage.`);
  });

  it('an origin whose host no DNS name can be is refused', async () => {
    const line = await refused([
      'serve',
      '--port',
      '0',
      '--cors-origin',
      `http://${'g'.repeat(64)}.example`,
      '--data-dir',
      dataDir,
    ]);
    expect(line).toMatch(/--cors-origin: 'http:\/\/g+…' is no origin a browser sends/);
  });

  it('--data-dir, OCS_DATA_DIR and --database-url with one: refused, no directory made, no URL repeated', async () => {
    const withBreak = join(work, 'line\nbreak');
    expect(await refused(['org', 'list', '--data-dir', withBreak])).toMatch(
      /--data-dir must be a path without line breaks or other control characters \(it holds U\+000A\), got '.*line\\nbreak'/,
    );
    const withTab = join(work, 'tab\there');
    const fromVariable = await runCli(['org', 'list'], { env: { OCS_DATA_DIR: withTab } });
    expect(fromVariable.code).toBe(2);
    expect(oneLine(fromVariable.stderr)).toMatch(
      /OCS_DATA_DIR must be a path without .* \(it holds U\+0009\), got '.*tab\\there'/,
    );
    expect(existsSync(withBreak) || existsSync(withTab)).toBe(false);
    const url = await refused(['org', 'list', '--database-url', `${closedPostgres}\nsecret`]);
    expect(url).toMatch(/--database-url holds a line break or another control character; give the URL without it\./);
    expect(url).not.toContain('secret');
  });
});
