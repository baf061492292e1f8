/**
 * An admin command whose answer is lost: the server holding the PGlite directory runs it and
 * commits, then goes away before answering (here, a stand-in that does just that). The CLI
 * looks again, takes the directory and runs the command itself, with the record ID it chose
 * for this run: `org create` and `seed` make one organization, not two, and `key create` one
 * key; the secret printed is the one that works (the lost answer's never does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { hashApiKey } from '../../src/domain/api-keys.ts';
import { adminSocketPath } from '../../src/node/admin-channel.ts';
import { runAdminCommand } from '../../src/node/admin-commands.ts';
import { acquireDataDirLock } from '../../src/node/data-dir-lock.ts';
import { openStore } from '../../src/node/open-store.ts';
import { createOrganization } from '../../src/seed/organizations.ts';
import type { SqlStore } from '../../src/store/sql/index.ts';
import { requireBuild, runCli } from './processes.ts';

beforeAll(requireBuild);

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Holds `dataDir` as a server does, runs the first admin command it is sent, then drops the
 * connection unanswered and lets the directory go. Resolves with what it ran and the answer lost.
 */
async function holdThenDropAfterCommit(dataDir: string, setUp: (store: SqlStore) => Promise<void>) {
  const socket = adminSocketPath(dataDir);
  const acquired = await acquireDataDirLock(dataDir, { command: 'ocs-server serve', socket });
  if (!('lock' in acquired)) throw new Error('the directory is held');
  const { lock } = acquired;
  const store = await openStore({ dataDir }, { lock });
  await setUp(store);
  let server: Server | undefined;
  const ran = new Promise<{ run: unknown; lost: unknown }>((resolve, reject) => {
    server = createServer((connection) => {
      let line = '';
      connection.setEncoding('utf8');
      connection.on('data', (chunk: string) => {
        line += chunk;
        if (!line.includes('\n')) return;
        const request = JSON.parse(line) as { run: Parameters<typeof runAdminCommand>[1] };
        runAdminCommand(store, request.run).then(async (output) => {
          // Committed; the process dies before its answer leaves.
          connection.destroy();
          server?.close();
          await store.close();
          lock.release();
          resolve({ run: request.run, lost: output.json });
        }, reject);
      });
    });
  });
  await new Promise<void>((resolve) => server?.listen(socket, resolve));
  return ran;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ocs-lost-answer-'));
  dirs.push(dir);
  return dir;
}

it('org create: one organization, though it ran on the server and then in the CLI', async () => {
  const dataDir = tempDir();
  const ran = holdThenDropAfterCommit(dataDir, async () => undefined);
  const cli = await runCli(['org', 'create', '--name', 'Acme', '--data-dir', dataDir, '--json'], {
    timeoutMs: 60_000,
  });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  const printed = JSON.parse(cli.stdout) as { id: string; name: string };
  expect((await ran).run).toMatchObject({ command: 'org create', id: printed.id });
  const store = await openStore({ dataDir });
  try {
    const named = (await store.organizations.list()).filter((organization) => organization.name === 'Acme');
    expect(named.map((organization) => organization.id)).toEqual([printed.id]);
  } finally {
    await store.close();
  }
});

it('key create: one key, and the secret printed is the one that works', async () => {
  const dataDir = tempDir();
  const organizationId = crypto.randomUUID();
  const ran = holdThenDropAfterCommit(dataDir, async (store) => {
    await createOrganization(store, { id: organizationId, name: 'Acme' });
  });
  const cli = await runCli(['key', 'create', '--org', organizationId, '--data-dir', dataDir, '--json'], {
    timeoutMs: 60_000,
  });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  const printed = JSON.parse(cli.stdout) as { id: string; key: string };
  const { run, lost } = await ran;
  expect(run).toMatchObject({ command: 'key create', id: printed.id });
  const lostKey = (lost as { key: string }).key;
  expect(lostKey).not.toBe(printed.key);
  const store = await openStore({ dataDir });
  try {
    const keys = await store.apiKeys.listForOrganization(organizationId);
    expect(keys.map((key) => key.id)).toEqual([printed.id]);
    expect((await store.apiKeys.findByHash(await hashApiKey(printed.key)))?.key.id).toBe(printed.id);
    expect(keys[0]?.revoked_at).toBeNull();
    expect(await store.apiKeys.findByHash(await hashApiKey(lostKey))).toBeNull();
  } finally {
    await store.close();
  }
});

it('seed: one demo organization, and the key printed is the one that works', async () => {
  const dataDir = tempDir();
  const ran = holdThenDropAfterCommit(dataDir, async () => undefined);
  const cli = await runCli(['seed', '--data-dir', dataDir, '--json'], { timeoutMs: 60_000 });
  expect(cli.stderr).toBe('');
  expect(cli.code).toBe(0);
  const printed = JSON.parse(cli.stdout) as { organizationId: string; apiKey: string };
  const { run, lost } = await ran;
  expect(run).toMatchObject({ command: 'seed', id: printed.organizationId });
  const store = await openStore({ dataDir });
  try {
    expect((await store.organizations.list()).map((organization) => organization.id)).toEqual([printed.organizationId]);
    expect((await store.apiKeys.findByHash(await hashApiKey(printed.apiKey)))?.organization.id).toBe(
      printed.organizationId,
    );
    expect(await store.apiKeys.findByHash(await hashApiKey((lost as { apiKey: string }).apiKey))).toBeNull();
  } finally {
    await store.close();
  }
});
