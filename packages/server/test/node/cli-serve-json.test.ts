/**
 * `ocs-server serve --json`: one JSON line on standard output once it listens, for a script
 * that starts the server: the API's URL, the store, and on a first start the demo
 * organization and its key (which is then not printed as text). `--json` was accepted and did
 * nothing (found by an attack on the docs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { requireBuild, startServe, stopAll } from './processes.ts';

let dataDir: string;
beforeAll(() => {
  requireBuild();
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-serve-json-'));
});
afterEach(stopAll);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface ServeLine {
  url: string;
  store: string;
  dataDir?: string;
  demo: { organizationId: string; apiKey: string } | null;
}

/** The line `--json` adds among the log's JSON lines: the one with `demo`. */
const serveLine = async (stdout: () => string) =>
  vi.waitFor(() => {
    const line = stdout()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((parsed) => 'demo' in parsed);
    if (!line) throw new Error(`no serve line yet in:\n${stdout()}`);
    return line as unknown as ServeLine;
  });

it('prints the URL, the store and the first start’s demo key as JSON; later starts give demo null', async () => {
  const first = await startServe(['--port', '0', '--json', '--data-dir', dataDir]);
  const line = await serveLine(first.stdout);
  expect(line).toMatchObject({ url: first.url, store: 'pglite', dataDir });
  expect(line.demo?.apiKey).toMatch(/^ocs_/);
  // The key is given once, in the JSON: not as text too.
  expect(first.stderr()).not.toContain(line.demo?.apiKey);
  const answer = await fetch(`${line.url}/campaigns`, { headers: { Authorization: `Bearer ${line.demo?.apiKey}` } });
  expect(answer.status).toBe(200);
  // Standard output (a pipe here) stays blocking, as the log's writer needs it (decision 0019):
  // the line is not written through `process.stdout`, whose making sets O_NONBLOCK.
  if (process.platform === 'linux') {
    const flags = /^flags:\s+(\d+)$/m.exec(readFileSync(`/proc/${first.pid}/fdinfo/1`, 'utf8'))?.[1];
    expect(Number.parseInt(flags ?? 'x', 8) & 0o4000).toBe(0);
  }
  await first.stop();

  const later = await startServe(['--port', '0', '--json', '--data-dir', dataDir]);
  expect(await serveLine(later.stdout)).toEqual({ url: later.url, store: 'pglite', dataDir, demo: null });
  await later.stop();
}, 120_000);
