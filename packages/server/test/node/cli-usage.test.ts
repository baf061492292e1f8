/**
 * `ocs-server` as people meet it, run as a real process: `--help` and `--version` exit 0;
 * every mistake is one line on stderr saying what is wrong and what to do, exit code 2;
 * every number is checked; an internal error is one line and exit code 1, with the stack
 * only under `--debug` or `OCS_DEBUG=1`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { oneLine, requireBuild, runCli, startServe, stopAll } from './processes.ts';

let dataDir: string;
beforeAll(() => {
  requireBuild();
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-usage-'));
});
afterEach(stopAll);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const version = (
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

describe('help and version', () => {
  it('--help and -h print the usage and exit 0', async () => {
    for (const flag of ['--help', '-h']) {
      const help = await runCli([flag]);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(/^Usage: ocs-server <command>/);
      expect(help.stdout).toContain('--version');
      // The log's level is set in the environment only: the help names it.
      expect(help.stdout).toMatch(
        /^ {2}LOG_LEVEL +serve: trace, debug, info \(default\), warn, error, fatal or silent/m,
      );
    }
    expect((await runCli(['key', 'create', '--help'])).code).toBe(0);
  });

  it('--version prints the package version and exits 0', async () => {
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

/** Each mistake: exit code 2, one line naming it, pointing to --help, nothing on stdout. */
const mistakes: Array<[string, string[], RegExp]> = [
  ['an unknown flag', ['--bogus'], /^ocs-server: unknown option --bogus\. Run ocs-server --help/],
  ['an unknown flag after a command', ['serve', '--bogus'], /unknown option --bogus/],
  ['--port abc', ['serve', '--port', 'abc'], /--port must be an integer from 0 to 65535, got 'abc'/],
  ['--port abc without a command', ['--port', 'abc'], /--port must be an integer from 0 to 65535, got 'abc'/],
  ['--port out of range', ['serve', '--port', '65536'], /--port must be an integer from 0 to 65535, got '65536'/],
  ['--port=-1', ['serve', '--port=-1'], /--port must be an integer from 0 to 65535, got '-1'/],
  ['--port -1', ['serve', '--port', '-1'], /--port needs a value \(write --port=<value>/],
  ['--port 1e3', ['serve', '--port', '1e3'], /--port must be an integer/],
  [
    '--rate-limit-per-endpoint abc',
    ['serve', '--rate-limit-per-endpoint', 'abc'],
    /--rate-limit-per-endpoint must be a whole number of at least 1, got 'abc'/,
  ],
  [
    '--rate-limit-total 0',
    ['serve', '--rate-limit-total', '0'],
    /--rate-limit-total must be a whole number of at least 1/,
  ],
  [
    '--limit 501',
    ['deliveries', 'list', '--campaign', 'x', '--limit', '501'],
    /--limit must be an integer from 1 to 500/,
  ],
  ['a missing option value', ['key', 'create', '--org'], /--org needs a value/],
  ['a missing --port value', ['serve', '--port'], /--port needs a value/],
  ['a value for a switch', ['org', 'list', '--json=yes'], /--json takes no value/],
  ['no command', [], /which command\?/],
  ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/],
  // Names Object.prototype has were taken for commands (`constructor needs function Object()`).
  ...['constructor', 'toString', '__proto__'].map((name): [string, string[], RegExp] => [
    `the command ${name}`,
    [name],
    new RegExp(`unknown command '${name}'`),
  ]),
  ['a missing subcommand', ['key'], /key needs a subcommand: key create, key revoke/],
  ['a missing argument', ['key', 'revoke'], /key revoke needs <key-id>/],
  ['an extra argument', ['org', 'list', 'extra'], /org list takes no argument 'extra'/],
  ['an option of another command', ['org', 'list', '--port', '4010'], /--port does not apply to org list/],
  ['a missing required option', ['org', 'create'], /org create needs --name/],
  ['PORT that is not a number', ['serve'], /PORT must be an integer from 0 to 65535, got 'abc'/],
  ...['90', '1', '2099-02-30', '2030-01-31T10:00:00', 'tomorrow'].map((value): [string, string[], RegExp] => [
    `--expires-at ${value}`,
    ['key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--expires-at', value],
    /--expires-at must be an ISO 8601 date-time with an offset or Z \(2030-01-31T00:00:00Z\) or a date/,
  ]),
  [
    '--expires-at in the past',
    ['key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--expires-at', '2001-01-01'],
    /--expires-at must be in the future, got '2001-01-01' \(2001-01-01T00:00:00\.000Z\)/,
  ],
  [
    'a blank key name',
    ['key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--name='],
    /key create needs a --name that is not blank/,
  ],
  [
    'an owner email that is none',
    ['org', 'create', '--name', 'Acme', '--owner-email', 'notanemail'],
    /--owner-email must be an email address \(owner@example\.com\), got 'notanemail'/,
  ],
  [
    'a --scopes of commas',
    ['key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--scopes', ' , '],
    /--scopes needs at least one scope: leads:read, /,
  ],
  [
    'an empty --scopes',
    ['key', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--scopes='],
    /--scopes needs at least one scope: leads:read, /,
  ],
  ['an empty --host', ['serve', '--port', '0', '--host='], /--host needs an address/],
  ['an empty --host value', ['serve', '--port', '0', '--host', ''], /--host needs an address/],
  [
    'both stores',
    ['org', 'list', '--data-dir', '/tmp/never-made-ocs', '--database-url', 'postgres://a@127.0.0.1:1/x'],
    /give --database-url \(PostgreSQL\) or --data-dir \(embedded PGlite\), not both\./,
  ],
  // Refused before anything opens, as a usage mistake (it was a failure to listen, exit 1).
  [
    'a --host no URL holds',
    ['serve', '--port', '0', '--host', 'bad host'],
    /--host must be an interface's address or name/,
  ],
  ['a --host with a port', ['serve', '--port', '0', '--host', 'localhost:80'], /got 'localhost:80'/],
  // Longer than DNS allows: getaddrinfo's EINVAL was an internal error.
  ['a --host of 300 characters', ['serve', '--port', '0', '--host', 'a'.repeat(300)], /got 'a{64}…'/],
  [
    'a --host label of 64 characters',
    ['serve', '--port', '0', '--host', `${'a'.repeat(64)}.example`],
    /--host must be/,
  ],
];

describe('settings in the environment', () => {
  // They fell back to their default, unsaid; the grace is read before the server starts.
  it.each([
    [
      'OCS_SHUTDOWN_GRACE_MS',
      'abc',
      ['serve', '--port', '0'],
      /OCS_SHUTDOWN_GRACE_MS must be a whole number of at least 0, got 'abc'/,
    ],
    ['OCS_SHUTDOWN_GRACE_MS', '-5', ['serve', '--port', '0'], /got '-5'/],
    [
      'OCS_ADMIN_TIMEOUT_MS',
      'abc',
      ['org', 'list'],
      /OCS_ADMIN_TIMEOUT_MS must be a whole number of at least 1, got 'abc'/,
    ],
    ['OCS_ADMIN_TIMEOUT_MS', '0', ['org', 'list'], /got '0'/],
  ] as const)('%s=%s: one line, exit code 2', async (name, value, args, message) => {
    const result = await runCli([...args, '--data-dir', dataDir], { env: { [name]: value } });
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(message);
  });

  it('a --data-dir too long to use: one line, exit code 1, the path cut short', async () => {
    const result = await runCli(['org', 'list', '--data-dir', join(tmpdir(), 'x'.repeat(5000))]);
    expect(result.code).toBe(1);
    const line = oneLine(result.stderr);
    expect(line).toMatch(/^ocs-server: cannot use .*x{100}… \(ENAMETOOLONG\): pass --data-dir with a directory/);
    expect(line.length).toBeLessThan(400);
  });
});

describe('mistakes', () => {
  it.each(mistakes)('%s: one line, exit code 2', async (_, args, message) => {
    const needsDir =
      args.length > 0 && !args.includes('--bogus') && args[0] !== '--port' && !args.includes('--data-dir');
    const env: Record<string, string> = message.source.startsWith('PORT') ? { PORT: 'abc' } : {};
    const result = await runCli(needsDir ? [...args, '--data-dir', dataDir] : args, { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const line = oneLine(result.stderr);
    expect(line).toMatch(message);
    expect(line).toMatch(/^ocs-server: .*Run ocs-server --help for usage\.$/);
  });

  it('key create --org nope: one line about the ID, no PGlite source', async () => {
    const result = await runCli(['key', 'create', '--org', 'nope', '--data-dir', dataDir]);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      "ocs-server: --org must be an organization ID (a UUID), got 'nope'. Run ocs-server --help for usage.",
    );
  });

  it('an organization that does not exist: one line, exit code 1', async () => {
    const result = await runCli([
      'key',
      'create',
      '--org',
      '00000000-0000-4000-8000-000000000000',
      '--data-dir',
      dataDir,
    ]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toMatch(
      /^ocs-server: no organization 00000000-.*; ocs-server org list shows them\.$/,
    );
  });

  it('a deactivated organization: no key, one line saying what to do, exit code 1', async () => {
    const created = await runCli(['org', 'create', '--name', 'Closed', '--data-dir', dataDir, '--json']);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect((await runCli(['org', 'deactivate', id, '--data-dir', dataDir])).code).toBe(0);
    const result = await runCli(['key', 'create', '--org', id, '--data-dir', dataDir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(oneLine(result.stderr)).toBe(
      `ocs-server: organization ${id} is deactivated, so no key was created (its keys answer 403 ORGANIZATION_DEACTIVATED); create the key for an active organization (ocs-server org list).`,
    );
  });
});

describe('empty variables', () => {
  // `HOST=` in an env file must not make the server listen on every interface.
  it('HOST= counts as not set: serve listens on 127.0.0.1', { timeout: 90_000 }, async () => {
    const serving = await startServe(['--data-dir', dataDir, '--port', '0'], { env: { HOST: '' } });
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(await serving.stop()).toBe(0);
  });

  it('PORT= is not a mistake (the default port is used)', async () => {
    // A file where the directory should be: it stops there, whatever the default port's state.
    const aFile = join(dataDir, 'not-a-directory');
    writeFileSync(aFile, '');
    const result = await runCli(['serve', '--data-dir', aFile], { env: { PORT: '' } });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).not.toMatch(/PORT must be/);
  });
});

describe('failures', () => {
  it.skipIf(process.platform !== 'linux')(
    'a data directory under /proc is one line and exit 1, at once (Node 20 recursive mkdir spun there for ever)',
    async () => {
      for (const args of [
        ['org', 'list', '--data-dir', '/proc/ocs-no-such-dir/data'],
        ['serve', '--port', '0', '--data-dir', '/proc/ocs-no-such-dir'],
      ]) {
        const result = await runCli(args, { timeoutMs: 20_000 });
        expect(result.signal, args.join(' ')).toBeNull();
        expect(result.code, args.join(' ')).toBe(1);
        expect(oneLine(result.stderr)).toMatch(/^ocs-server: cannot use \/proc\/ocs-no-such-dir\S* \(ENOENT\)/);
      }
    },
  );

  it('a data directory that cannot be made is one line saying what to do, the stack only under --debug', async () => {
    // A file where the data directory should be: PGlite's directory cannot be made.
    const notADirectory = join(dataDir, 'a-file');
    writeFileSync(notADirectory, '');
    const plain = await runCli(['org', 'list', '--data-dir', notADirectory]);
    expect(plain.code).toBe(1);
    expect(oneLine(plain.stderr)).toBe(
      `ocs-server: cannot use ${notADirectory} (EEXIST): pass --data-dir with a directory this user can write.`,
    );

    for (const [args, env] of [
      [['org', 'list', '--data-dir', notADirectory, '--debug'], {}],
      [['org', 'list', '--data-dir', notADirectory], { OCS_DEBUG: '1' }],
    ] as const) {
      const debug = await runCli([...args], { env });
      expect(debug.code).toBe(1);
      expect(debug.stderr).toMatch(/^ocs-server: cannot use /);
      expect(debug.stderr).toMatch(/\n\s+at /);
    }
  });

  it('a PostgreSQL server that cannot be reached: one line naming the setting, exit code 1', async () => {
    const closed: Server = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    const result = await runCli(['org', 'list', '--database-url', `postgres://nobody@127.0.0.1:${port}/none`]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      'ocs-server: cannot reach PostgreSQL (ECONNREFUSED): check --database-url or DATABASE_URL, and that the server runs.',
    );
  });

  it('serve on a host that is not this machine: one line, before any demo key', { timeout: 60_000 }, async () => {
    const fresh = join(dataDir, 'never-made');
    const result = await runCli(['serve', '--port', '0', '--host', '192.0.2.1', '--data-dir', fresh]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(
      "ocs-server: cannot listen on host '192.0.2.1' (EADDRNOTAVAIL); choose another with --host.",
    );
    expect(existsSync(fresh)).toBe(false);
  });

  it('serve on a port in use: one line, exit code 1', { timeout: 90_000 }, async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const result = await runCli(['serve', '--port', String(port), '--data-dir', dataDir]);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr.replace(/^[\s\S]*Lost it\?[^\n]*\n\n/, ''))).toBe(
        `ocs-server: port ${port} on 127.0.0.1 is in use; choose another with --port (0 picks a free one).`,
      );
      // What it opened is closed again: the directory's lock and admin socket are gone.
      expect(existsSync(join(dataDir, 'ocs.lock'))).toBe(false);
      expect(existsSync(join(dataDir, 'ocs-admin.sock'))).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
