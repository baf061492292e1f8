/**
 * Three edges of `ocs-server`'s command line, run as real processes (the built bin):
 *
 * - after `--` every argument is an operand (POSIX getopt, node:util's parseArgs): `--debug`
 *   there is no switch, and reaches the command as the value it is;
 * - `org list` prints a name stored before names were bounded (100,000 characters, escape
 *   sequences) on one line, escaped and cut with a mark, while `--json` keeps it exact;
 * - an unknown `LOG_LEVEL` is repeated escaped and cut short, as other values given are.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../src/node/admin-commands.ts';
import { debugging, optionsEnd } from '../../src/node/cli-kit.ts';
import { echoedLength } from '../../src/node/echoed-value.ts';
import { openStore } from '../../src/node/open-store.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import { oneLine, requireBuild, runCli, stopAll } from './processes.ts';

let scratch: string;
beforeAll(() => {
  requireBuild();
  scratch = mkdtempSync(join(tmpdir(), 'ocs-operands-'));
});
afterEach(stopAll);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Any character no line of text output may hold raw (the line breaks between lines aside). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for.
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('--debug after --', () => {
  it('is an operand: debugging reads the options before -- only, as parseCommandLine does', () => {
    const saved = process.env.OCS_DEBUG;
    delete process.env.OCS_DEBUG;
    try {
      expect(optionsEnd(['key', 'revoke', '--', '--debug'])).toBe(2);
      expect(optionsEnd(['org', 'list'])).toBe(2);
      expect(debugging(['key', 'revoke', '--', '--debug'])).toBe(false);
      expect(debugging(['node', 'ocs-server', 'org', 'list', '--', 'x', '--debug'])).toBe(false);
      // Before `--`, wherever it is among the options, it is the switch.
      expect(debugging(['--debug', 'org', 'list'])).toBe(true);
      expect(debugging(['org', 'list', '--debug', '--', 'x'])).toBe(true);
    } finally {
      if (saved !== undefined) process.env.OCS_DEBUG = saved;
    }
  });

  it('reaches the command as its argument: key revoke -- --debug is a key ID that is no UUID, one line, exit code 2', async () => {
    const result = await runCli(['key', 'revoke', '--', '--debug', '--data-dir', join(scratch, 'unused')]);
    expect(result.code).toBe(2);
    // `--data-dir` after `--` is an operand too: the one too many, not the store.
    expect(oneLine(result.stderr)).toBe(
      "ocs-server: key revoke takes no argument '--data-dir'. Run ocs-server --help for usage.",
    );
    const alone = await runCli(['key', 'revoke', '--', '--debug']);
    expect(alone.code).toBe(2);
    expect(oneLine(alone.stderr)).toMatch(
      /^ocs-server: key revoke <key-id> must be an API key ID \(a UUID\), got '--debug'\. Run ocs-server --help/,
    );
  });

  it('is no switch for a command that takes no argument: one line, no stack, exit code 2', async () => {
    const notADirectory = join(scratch, 'a-file');
    writeFileSync(notADirectory, '');
    const result = await runCli(['org', 'list', '--data-dir', notADirectory, '--', '--debug']);
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toBe(
      "ocs-server: org list takes no argument '--debug'. Run ocs-server --help for usage.",
    );
  });
});

describe('org list with names stored before the bounds (or written into the database)', () => {
  const escape = '\u001b[2J\u001b[31m';
  const long = `${escape}Huge\n${'x'.repeat(100_000)}`;
  const longest = 'y'.repeat(500);
  const stored: string[] = ['Acme', long, longest, 'Bell\u0007ok'];
  const ids = new Map<string, string>();
  let dataDir: string;

  beforeAll(async () => {
    dataDir = join(scratch, 'names');
    const store = await openStore({ dataDir });
    try {
      for (const name of stored) {
        const organization = await createOrganization(store, { name: 'placeholder', members: [] });
        await store.client.query('update organizations set name = $1 where id = $2', [name, organization.id]);
        ids.set(name, organization.id);
      }
    } finally {
      await store.close();
    }
  }, 60_000);

  it('prints each on its line: escaped, the long one cut after 500 characters with a mark naming its length', async () => {
    const result = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(stored.length);
    for (const line of lines) expect(line).not.toMatch(raw);
    // Names the CLI stores now print whole, in the same columns as ever.
    expect(lines).toContain(`${ids.get('Acme')}  active       Acme`);
    expect(lines).toContain(`${ids.get(longest)}  active       ${longest}`);
    expect(lines).toContain(`${ids.get('Bell\u0007ok')}  active       Bell\\u0007ok`);
    const cut = lines.find((line) => line.startsWith(ids.get(long) as string)) as string;
    const kept = [...long].slice(0, 500).join('');
    expect(cut).toBe(
      `${ids.get(long)}  active       ${kept.replaceAll('\u001b', '\\u001b').replace('\n', '\\n')}… (cut at 500 of ${[...long].length} characters; --json prints the whole name)`,
    );
    expect(cut.length).toBeLessThan(700);
  });

  it('--json keeps every name whole and exact', async () => {
    const result = await runCli(['org', 'list', '--data-dir', dataDir, '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.slice(0, -1)).not.toMatch(raw);
    const listed = JSON.parse(result.stdout) as { id: string; name: string }[];
    expect(listed.find((o) => o.id === ids.get(long))?.name).toBe(long);
    expect(listed.find((o) => o.id === ids.get(longest))?.name).toBe(longest);
  });

  it("org create under the ID of such an organization repeats its name cut short in the refusal's one line", async () => {
    const id = ids.get(long) as string;
    const store = await openStore({ dataDir });
    try {
      const refused = runAdminCommand(store, { command: 'org create', name: 'Other', id });
      await expect(refused).rejects.toMatchObject({
        kind: 'state',
        message: `organization ${id} exists already, named '${`\\u001b[2J\\u001b[31mHuge\\n${'x'.repeat(echoedLength - 14)}`}…'.`,
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('an unknown LOG_LEVEL', () => {
  it('is repeated escaped and cut short: one line, exit code 2, not the 100,000 characters set', async () => {
    // Linux passes a variable of at most 128 KiB to a process: 100,000 characters is near the most it can be.
    const level = `\u001b[31m${'loud'.repeat(25_000)}`;
    const result = await runCli(['serve', '--port', '0', '--data-dir', join(scratch, 'never-made')], {
      env: { LOG_LEVEL: level },
    });
    expect(result.code).toBe(2);
    const line = oneLine(result.stderr);
    expect(line).toMatch(
      /^ocs-server: LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got '\\u001b\[31m(loud)+l?o?u?…'\. Run ocs-server --help for usage\.$/,
    );
    expect(line.length).toBeLessThan(250);
  });
});
