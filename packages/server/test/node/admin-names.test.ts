/**
 * Names in the admin commands' one-line outputs (`org list` and the others): `org create` and
 * `key create` refuse a name with a character that would break its line or make it show as
 * something else (control characters, U+2028/U+2029, the bidi controls), and a name stored
 * with one anyway (before the check, or written into the database) prints escaped, one line
 * that shows what it holds; `--json` keeps the exact value, the character written as a JSON
 * `\u` escape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkAdminCommand, runAdminCommand } from '../../src/node/admin-commands.ts';
import { main, run } from '../../src/node/cli.ts';
import { openStore } from '../../src/node/open-store.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import { openSqlStore, type SqlStore } from '../../src/store/sql/index.ts';
import { at, deliveryFixtures, lease, minutes } from '../support/delivery-fixtures.ts';

/** The line and paragraph separators, and every bidi control, each with what it is. */
const separatorsAndBidi: ReadonlyArray<[string, string]> = [
  ['\u2028', 'LINE SEPARATOR'],
  ['\u2029', 'PARAGRAPH SEPARATOR'],
  ['\u061c', 'ARABIC LETTER MARK'],
  ['\u200e', 'LEFT-TO-RIGHT MARK'],
  ['\u200f', 'RIGHT-TO-LEFT MARK'],
  ['\u202a', 'LEFT-TO-RIGHT EMBEDDING'],
  ['\u202b', 'RIGHT-TO-LEFT EMBEDDING'],
  ['\u202c', 'POP DIRECTIONAL FORMATTING'],
  ['\u202d', 'LEFT-TO-RIGHT OVERRIDE'],
  ['\u202e', 'RIGHT-TO-LEFT OVERRIDE'],
  ['\u2066', 'LEFT-TO-RIGHT ISOLATE'],
  ['\u2067', 'RIGHT-TO-LEFT ISOLATE'],
  ['\u2068', 'FIRST STRONG ISOLATE'],
  ['\u2069', 'POP DIRECTIONAL ISOLATE'],
];

/** Any character no line of text output may hold raw (line breaks between lines aside). */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for.
const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const codePoint = (character: string) => `U+${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
const organizationId = '00000000-0000-4000-8000-000000000000';

let printed: string[];
let complained: string[];
beforeEach(() => {
  printed = [];
  complained = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    complained.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

it('refuses a name with a line or paragraph separator or a bidi control, naming the character', () => {
  for (const [character, what] of separatorsAndBidi) {
    const found = `(it holds ${codePoint(character)})`;
    for (const name of [`Acme${character}`, `${character}Acme`, `Ac${character}me Inc`]) {
      expect(() => checkAdminCommand({ command: 'org create', name }), what).toThrow(/--name must be printable text/);
      expect(() => checkAdminCommand({ command: 'org create', name }), what).toThrow(found);
      expect(() => checkAdminCommand({ command: 'org create', name: 'Acme', ownerName: name }), what).toThrow(
        /--owner-name must be printable text/,
      );
      expect(() => checkAdminCommand({ command: 'key create', organizationId, name }), what).toThrow(
        /--name must be printable text/,
      );
    }
  }
});

it('still takes right-to-left text, joined emoji and other printable names', () => {
  for (const name of ['שלום בע״מ', 'شركة أكمي', 'Acme (עברית) 2', '👩‍💻 Devs', 'Zoë & Co — 東京 🚀', 'a\\u202eb']) {
    expect(checkAdminCommand({ command: 'org create', name })).toMatchObject({ name });
    expect(checkAdminCommand({ command: 'key create', organizationId, name })).toMatchObject({ name });
  }
});

it('the CLI refuses such a --name as a usage mistake: exit code 2, one line, nothing created', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ocs-names-'));
  try {
    await run(['org', 'create', '--name', 'Acme\u202eevil', '--data-dir', dataDir]);
    expect(process.exitCode).toBe(2);
    const message = complained.join('');
    expect(message).toMatch(/^ocs-server: --name must be printable text, .*\(it holds U\+202E\); .*\n$/);
    expect(message.slice(0, -1)).not.toMatch(raw);
    expect(printed).toEqual([]);
    process.exitCode = undefined;
    await run(['org', 'list', '--data-dir', dataDir]);
    expect(process.exitCode).toBe(0);
    expect(printed.join('')).toBe('No organizations.\n');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('names stored with such characters (before the check, or written into the database)', () => {
  /** The stored names, and how a line of text shows them. */
  const stored: ReadonlyArray<[string, string]> = [
    ['Line\nBreak', 'Line\\nBreak'],
    ['Cr\rTab\tEnd', 'Cr\\rTab\\tEnd'],
    ['Esc\u001b[31mRed\u007f', 'Esc\\u001b[31mRed\\u007f'],
    ['Nel\u0085Csi\u009b', 'Nel\\u0085Csi\\u009b'],
    ['Acme\u202eevil', 'Acme\\u202eevil'],
    ['Sep\u2028Para\u2029', 'Sep\\u2028Para\\u2029'],
    ['\u2066Iso\u2069\u061c\u200e\u200f', '\\u2066Iso\\u2069\\u061c\\u200e\\u200f'],
    ['\u202a\u202b\u202c\u202d', '\\u202a\\u202b\\u202c\\u202d'],
    ['Zoë — 東京 שלום 👩‍💻', 'Zoë — 東京 שלום 👩‍💻'],
  ];
  let dataDir: string;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ocs-names-'));
    const store = await openStore({ dataDir });
    try {
      for (const [name] of stored) {
        const organization = await createOrganization(store, { name: 'placeholder', members: [] });
        await store.client.query('update organizations set name = $1 where id = $2', [name, organization.id]);
        ids.set(name, organization.id);
      }
    } finally {
      await store.close();
    }
  }, 60_000);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('org list prints each one on its own line, escaped', async () => {
    expect(await main(['org', 'list', '--data-dir', dataDir])).toBe(0);
    const lines = printed.join('').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(stored.length);
    for (const line of lines) expect(line).not.toMatch(raw);
    for (const [name, shown] of stored) expect(lines).toContain(`${ids.get(name)}  active       ${shown}`);
  });

  it('org list --json keeps the exact names, the characters JSON.stringify leaves raw written as \\u escapes', async () => {
    expect(await main(['org', 'list', '--data-dir', dataDir, '--json'])).toBe(0);
    const text = printed.join('');
    expect(text.endsWith('\n')).toBe(true);
    expect(text.slice(0, -1)).not.toMatch(raw);
    expect(text).toContain('Acme\\u202eevil');
    const listed = JSON.parse(text) as { id: string; name: string }[];
    for (const [name] of stored) expect(listed.find((o) => o.id === ids.get(name))?.name).toBe(name);
  });

  it('org create under the ID of one shows its name escaped in the refusal', async () => {
    const id = ids.get('Acme\u202eevil') as string;
    const store = await openStore({ dataDir });
    try {
      const refused = runAdminCommand(store, { command: 'org create', name: 'Other', id });
      await expect(refused).rejects.toMatchObject({
        kind: 'state',
        message: `organization ${id} exists already, named 'Acme\\u202eevil'.`,
      });
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('deliveries list', () => {
  let store: SqlStore;
  beforeAll(async () => {
    store = await openSqlStore();
  }, 60_000);
  afterAll(() => store.close());

  it('prints a stored error with a line break or a bidi control escaped, on its line', async () => {
    const f = await deliveryFixtures(store);
    const webhook = await f.webhook();
    const delivery = await f.enqueue();
    await store.deliveries.claimDue({ ...lease(0), limit: 10, workerId: 'w1' });
    const error = 'request failed: first\nsecond \u202etxt.exe';
    await store.deliveries.completeAttempts([
      {
        delivery_id: delivery.id,
        worker_id: 'w1',
        attempt: 1,
        outcome: { status: 'pending', at: at(minutes(15)) },
        attempts_made: 1,
        last_error: error,
        attempts: [
          {
            delivery_id: delivery.id,
            attempt: 1,
            webhook_id: webhook.id,
            url: webhook.url,
            started_at: at(0),
            ok: false,
            status: null,
            duration_ms: 12,
            error,
          },
        ],
      },
    ]);
    const output = await runAdminCommand(store, { command: 'deliveries list', campaignId: f.campaign.id, limit: 20 });
    const lines = output.text.split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(raw);
    expect(lines[0]).toMatch(/ \(request failed: first\\nsecond \\u202etxt\.exe\)$/);
    expect(lines[1]).toMatch(/ → failed - in 12 ms \(request failed: first\\nsecond \\u202etxt\.exe\)$/);
    expect(output.json).toMatchObject({ items: [{ last_error: error, attempts: [{ error }] }] });
  });
});
