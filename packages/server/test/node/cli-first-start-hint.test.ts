/**
 * The `key create` command a first start prints on PostgreSQL opens the same store: with
 * `--database-url` when the URL came from the flag (not printed when it holds a password,
 * since the line may end up in a log), else with the same `DATABASE_URL`; on PGlite, with
 * `--data-dir` when the directory came from `OCS_DATA_DIR`. It used to name
 * only the organization, so the printed command opened the default PGlite directory and
 * found no such organization (found by an attack on the docs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { requireBuild, runCli, startServe, stopAll } from './processes.ts';

const databaseUrl = process.env.DATABASE_URL;
afterEach(stopAll);

/** The printed command's arguments after `npx ocs-server`. */
const printedCommand = (stderr: string) => {
  const line = /Lost it\? Create another \(works while the server runs[^)]*\): npx ocs-server (.*)/.exec(stderr)?.[1];
  if (!line) throw new Error(`no hint in:\n${stderr}`);
  return line;
};

describe.runIf(databaseUrl)('the first start on PostgreSQL', () => {
  const made: string[] = [];
  /** A new empty database's URL, with `password` in it when given (trust auth ignores it). */
  const freshDatabase = async (password?: string) => {
    const name = `ocs_hint_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    made.push(name);
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    if (password) url.password = password;
    return url.toString();
  };
  afterAll(async () => {
    await stopAll();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('prints a command that works as printed when the URL came from --database-url', async () => {
    requireBuild();
    const url = await freshDatabase();
    const serving = await startServe(['--database-url', url, '--port', '0']);
    const command = printedCommand(serving.stderr());
    expect(command.replaceAll("'", '')).toContain(`--database-url ${url}`);
    // As a shell would split it (shell-quoted if need be; the URL holds no space).
    const args = command.replaceAll("'", '').split(' ');
    const created = await runCli([...args, '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };
    const answer = await fetch(`${serving.url}/campaigns`, { headers: { Authorization: `Bearer ${key}` } });
    expect(answer.status).toBe(200);
    await serving.stop();
  }, 90_000);

  it('names no password, and says to use the same DATABASE_URL when the URL came from it', async () => {
    const secret = await startServe(['--database-url', await freshDatabase('hint-secret-9'), '--port', '0']);
    expect(printedCommand(secret.stderr())).toMatch(/ --database-url <the same URL>$/);
    expect(secret.stderr()).not.toContain('hint-secret-9');
    await secret.stop();
    const fromEnv = await startServe(['--port', '0'], { env: { DATABASE_URL: await freshDatabase() } });
    // Said before the command, which stays pasteable as it is.
    expect(fromEnv.stderr()).toContain('(works while the server runs; with the same DATABASE_URL): npx ocs-server');
    expect(printedCommand(fromEnv.stderr())).toMatch(/^key create --org [0-9a-f-]{36}$/);
    await fromEnv.stop();
  }, 90_000);
});

it('names the directory OCS_DATA_DIR chose, on PGlite', async () => {
  requireBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'ocs-hint-'));
  try {
    const serving = await startServe(['--port', '0'], { env: { OCS_DATA_DIR: dataDir } });
    expect(printedCommand(serving.stderr())).toMatch(new RegExp(` --data-dir '?${dataDir}'?$`));
    await serving.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);
