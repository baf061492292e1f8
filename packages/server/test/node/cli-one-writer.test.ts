/**
 * One writer per PGlite data directory (docs/decisions/0004-one-writer-per-data-dir.md), with
 * real processes: a second `serve` is refused naming the holder, a lock left by `kill -9` is
 * recovered, and the admin commands run while the server runs, by the server, so that a key
 * created meanwhile works at once (and after a restart). A holder that does not answer makes
 * a command refuse: one line, nothing printed as done.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { oneLine, requireBuild, runCli, type Serving, startServe, stopAll } from './processes.ts';

beforeAll(requireBuild);

/** An ID no record has. */
const noSuchId = '00000000-0000-4000-8000-000000000000';

const get = (serving: Serving, key: string, path = '/campaigns') =>
  fetch(`${serving.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });

function demoOrganization(serving: Serving): string {
  const match = /key create --org ([0-9a-f-]{36})/.exec(serving.stderr());
  if (!match?.[1]) throw new Error(`no demo organization in:\n${serving.stderr()}`);
  return match[1];
}

describe('while serve runs on a PGlite directory', () => {
  let dataDir: string;
  let serving: Serving;
  let organizationId: string;
  let keyMadeMeanwhile: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ocs-lock-'));
    serving = await startServe(['--data-dir', dataDir, '--port', '0']);
    organizationId = demoOrganization(serving);
  }, 90_000);
  afterAll(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('key create (another process) prints a key that works at once; key revoke applies at once', async () => {
    // The first start's hint names the directory it serves.
    expect(serving.stderr()).toContain(`key create --org ${organizationId} --data-dir ${dataDir}`);

    const created = await runCli(['key', 'create', '--org', organizationId, '--data-dir', dataDir, '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    expect((await get(serving, key)).status).toBe(200);
    keyMadeMeanwhile = key;

    const other = await runCli(['key', 'create', '--org', organizationId, '--data-dir', dataDir, '--json']);
    const { key: revokedKey, id } = JSON.parse(other.stdout) as { key: string; id: string };
    // The server that ran it for the CLI logs what it made (no secret): an operator's record.
    // The log is written in batches: wait for the line.
    const line = await vi.waitFor(
      () => {
        const found = serving
          .stdout()
          .split('\n')
          .filter((text) => text.includes('"admin command"') && text.includes(id))
          .map((text) => JSON.parse(text) as Record<string, unknown>);
        expect(found).toHaveLength(1);
        return found[0];
      },
      { timeout: 10_000 },
    );
    expect(line).toMatchObject({ command: 'key create', record_id: id });
    expect(line).not.toHaveProperty('reissued');
    expect(serving.stdout()).not.toContain(revokedKey);
    expect((await get(serving, revokedKey)).status).toBe(200);
    const revoked = await runCli(['key', 'revoke', id, '--data-dir', dataDir]);
    expect(revoked).toMatchObject({ code: 0, stderr: '' });
    expect(revoked.stdout).toContain(`Revoked API key ${id}.`);
    // No cached answer to wait for: the server forgets its cache after an admin command.
    expect((await get(serving, revokedKey)).status).toBe(401);
  });

  it('org create, org list, seed and deliveries list work too; mistakes still are one line', async () => {
    const org = await runCli(['org', 'create', '--name', 'Second', '--data-dir', dataDir, '--json']);
    expect(org).toMatchObject({ code: 0, stderr: '' });
    const organization = JSON.parse(org.stdout) as { id: string; name: string };
    expect(organization.name).toBe('Second');

    const list = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(organization.id);

    const seeded = await runCli(['seed', '--data-dir', dataDir, '--json']);
    expect(seeded.code).toBe(0);
    const demo = JSON.parse(seeded.stdout) as { apiKey: string };
    const campaigns = await get(serving, demo.apiKey);
    expect(campaigns.status).toBe(200);

    const created = await fetch(`${serving.url}/campaigns`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${demo.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Through the server' }),
    });
    const { campaign_id: campaignId } = (await created.json()) as { campaign_id: string };
    const deliveries = await runCli(['deliveries', 'list', '--campaign', campaignId, '--data-dir', dataDir, '--json']);
    expect(deliveries.code).toBe(0);
    expect(JSON.parse(deliveries.stdout)).toMatchObject({ total: 0, items: [] });
    // An ID no campaign has is said, through the server as on a store of the CLI's own.
    const unknown = await runCli(['deliveries', 'list', '--campaign', noSuchId, '--data-dir', dataDir]);
    expect(unknown.code).toBe(1);
    expect(oneLine(unknown.stderr)).toMatch(/no campaign 00000000-0000-4000-8000-000000000000/);

    const missing = await runCli(['key', 'create', '--org', noSuchId, '--data-dir', dataDir]);
    expect(missing.code).toBe(1);
    expect(oneLine(missing.stderr)).toMatch(/no organization 00000000-0000-4000-8000-000000000000/);
    expect(missing.stdout).toBe('');

    const bad = await runCli(['key', 'create', '--org', 'nope', '--data-dir', dataDir]);
    expect(bad.code).toBe(2);
    expect(oneLine(bad.stderr)).toMatch(/--org must be an organization ID/);

    // Refused by the server as by a CLI on its own store: the same line, the same code.
    expect((await runCli(['org', 'deactivate', organization.id, '--data-dir', dataDir])).code).toBe(0);
    const closed = await runCli(['key', 'create', '--org', organization.id, '--data-dir', dataDir]);
    expect(closed.code).toBe(1);
    expect(closed.stdout).toBe('');
    expect(oneLine(closed.stderr)).toMatch(
      new RegExp(
        `^ocs-server: organization ${organization.id} is deactivated, so no key was created .*\\(ocs-server org list\\)\\.$`,
      ),
    );
  });

  it('a second serve is refused, naming the holder', async () => {
    const second = await runCli(['serve', '--data-dir', dataDir, '--port', '0']);
    expect(second.code).toBe(1);
    const line = oneLine(second.stderr);
    expect(line).toMatch(new RegExp(`in use by ocs-server serve \\(pid ${serving.pid}, since \\d{4}-\\d\\d-\\d\\dT`));
    expect(line).toContain(`kill ${serving.pid}`);
    // The holder is unharmed.
    expect((await get(serving, keyMadeMeanwhile)).status).toBe(200);
  });

  it('a wait set beyond what a timer keeps is waited, not ended at once with a warning', async () => {
    const listed = await runCli(['org', 'list', '--data-dir', dataDir], {
      env: { OCS_ADMIN_TIMEOUT_MS: '3000000000' },
    });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('');
  });

  it('a holder that does not answer makes a command refuse, printing nothing as done', async () => {
    process.kill(serving.pid, 'SIGSTOP');
    try {
      const created = await runCli(['key', 'create', '--org', organizationId, '--data-dir', dataDir], {
        env: { OCS_ADMIN_TIMEOUT_MS: '1000' },
      });
      expect(created.code).toBe(1);
      expect(created.stdout).toBe('');
      const line = oneLine(created.stderr);
      expect(line).toMatch(/nothing was done: .* no answer within/);
      expect(line).toContain(`pid ${serving.pid}`);
      expect(line).toContain(`kill ${serving.pid}`);
    } finally {
      process.kill(serving.pid, 'SIGCONT');
    }
    expect((await get(serving, keyMadeMeanwhile)).status).toBe(200);
  });

  it(
    'stops on SIGTERM, releasing the lock; the key made meanwhile works after a restart',
    { timeout: 90_000 },
    async () => {
      expect(await serving.stop()).toBe(0);
      expect(existsSync(join(dataDir, 'ocs.lock'))).toBe(false);
      expect(existsSync(join(dataDir, 'ocs-admin.sock'))).toBe(false);

      serving = await startServe(['--data-dir', dataDir, '--port', '0']);
      expect((await get(serving, keyMadeMeanwhile)).status).toBe(200);
    },
  );
});

describe('a lock without a live server', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ocs-lock-'));
  });
  afterEach(async () => {
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('left by kill -9 is taken over by the next serve', { timeout: 120_000 }, async () => {
    const first = await startServe(['--data-dir', dataDir, '--port', '0']);
    const organizationId = demoOrganization(first);
    const created = await runCli(['key', 'create', '--org', organizationId, '--data-dir', dataDir, '--json']);
    const { key } = JSON.parse(created.stdout) as { key: string };
    process.kill(first.pid, 'SIGKILL');
    await new Promise((resolve) => first.child.once('close', resolve));
    expect(existsSync(join(dataDir, 'ocs.lock'))).toBe(true);

    const next = await startServe(['--data-dir', dataDir, '--port', '0']);
    expect(next.stderr()).not.toMatch(/Created the demo organization/);
    expect((await get(next, key)).status).toBe(200);
  });

  // A container's server is pid 1; restarted after a crash, the next one is pid 1 again and
  // finds its own pid in the lock. Run here in a PID namespace of its own where allowed.
  const asPid1 = ['unshare', '-pf', '--kill-child'];
  const canUnshare = spawnSync(asPid1[0] as string, [...asPid1.slice(1), 'true']).status === 0;
  it.skipIf(!canUnshare)(
    'left by pid 1 killed in a container is taken over by the next pid 1, and commands work',
    { timeout: 120_000 },
    async () => {
      const first = await startServe(['--data-dir', dataDir, '--port', '0'], { wrap: asPid1 });
      const organizationId = demoOrganization(first);
      process.kill(first.pid, 'SIGKILL'); // unshare, and with it (--kill-child) the server
      await new Promise((resolve) => first.child.once('close', resolve));
      expect(JSON.parse(readFileSync(join(dataDir, 'ocs.lock'), 'utf8'))).toMatchObject({ pid: 1 });

      const listed = await runCli(['org', 'list', '--data-dir', dataDir], { wrap: asPid1 });
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(listed.stdout).toContain(organizationId);

      // The short command let go of its lock; kill -9 the server again for the next start.
      const second = await startServe(['--data-dir', dataDir, '--port', '0'], { wrap: asPid1 });
      process.kill(second.pid, 'SIGKILL');
      await new Promise((resolve) => second.child.once('close', resolve));
      const next = await startServe(['--data-dir', dataDir, '--port', '0'], { wrap: asPid1 });
      expect(next.stderr()).not.toMatch(/Created the demo organization/);
      // unshare does not pass SIGTERM on: afterEach kills it (and so the server) by pid.
    },
  );

  it('held by a live process without an answering socket: commands and serve refuse', { timeout: 60_000 }, async () => {
    // This test process stands for a holder whose admin socket is gone.
    writeFileSync(
      join(dataDir, 'ocs.lock'),
      JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        since: new Date().toISOString(),
        command: 'ocs-server serve',
        socket: join(dataDir, 'ocs-admin.sock'),
        token: 'test',
      }),
    );
    const listed = await runCli(['org', 'list', '--data-dir', dataDir]);
    expect(listed.code).toBe(1);
    expect(listed.stdout).toBe('');
    expect(oneLine(listed.stderr)).toMatch(
      new RegExp(`nothing was done: .* held by ocs-server serve \\(pid ${process.pid}, .*does not exist`),
    );

    const serve = await runCli(['serve', '--data-dir', dataDir, '--port', '0']);
    expect(serve.code).toBe(1);
    expect(oneLine(serve.stderr)).toContain(`pid ${process.pid}`);
  });
});
