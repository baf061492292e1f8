/**
 * Standard output failing under the server's log (`log-stdout.ts`): a full disk, a reader that
 * has gone or reads nothing. Logging never throws into the request that logged, the trouble is
 * told once on standard error (not once per line), lines wait up to 1 MB and later ones are
 * dropped and counted, writing resumes by itself, and a flush never hangs.
 *
 * The failures are made by `fs.writeSync` failing for the stream's own file descriptor (the
 * call sonic-boom makes); the bytes that reach the file are read back.
 */
import fs, { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { logStdout } from '../../src/node/log-stdout.ts';

let dir: string;
let files = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ocs-log-stdout-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
});

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, write`), { code });
}

/**
 * A log stdout on a file of its own, whose writes fail with `failWith` while it is set. The
 * file stays open to the end of the run: the stream's timer writes to it every 250 ms.
 */
function failingOutput() {
  const file = join(dir, `out-${(files += 1)}.log`);
  const fd = openSync(file, 'w');
  const told: string[] = [];
  const state = { failWith: undefined as string | undefined, attempts: 0 };
  const writeSync = fs.writeSync.bind(fs);
  vi.spyOn(fs, 'writeSync').mockImplementation(((target: number, ...rest: unknown[]) => {
    if (target === fd) {
      state.attempts += 1;
      if (state.failWith) throw errno(state.failWith);
    }
    return (writeSync as (...args: unknown[]) => number)(target, ...rest);
  }) as typeof fs.writeSync);
  const out = logStdout({ pretty: false, fd, tell: (line) => told.push(line) });
  return { out, told, state, written: () => readFileSync(file, 'utf8') };
}

/** A log line of exactly 1,024 bytes, newline included. */
const line = (n: number) => `${JSON.stringify({ n, pad: 'x'.repeat(1024 - 16 - String(n).length) })}\n`;

it('keeps 1 MB of lines while writes fail, drops and counts the rest, and tells it twice, not per line', () => {
  const { out, told, state, written } = failingOutput();
  expect(line(7)).toHaveLength(1024);
  state.failWith = 'ENOSPC';
  // 2,100 lines of 1 KB: the first 1,024 fill the 1 MB that waits, the other 1,076 are dropped.
  for (let n = 0; n < 2100; n += 1) expect(() => out.write(line(n))).not.toThrow();
  expect(state.attempts).toBeGreaterThan(1);
  expect(told).toHaveLength(1);
  expect(told[0]).toMatch(/^ocs-server: warning: log lines cannot be written to standard output \(ENOSPC/);
  // A flush while the disk is full returns (sonic-boom 4 tried again every 100 ms, forever).
  expect(() => out.flushSync()).not.toThrow();
  expect(told).toHaveLength(1);
  expect(written()).toBe('');

  state.failWith = undefined;
  out.flushSync();
  expect(told[1]).toBe('ocs-server: log lines are written to standard output again; 1076 were dropped meanwhile');
  const kept = Array.from({ length: 1024 }, (_, n) => line(n)).join('');
  expect(written()).toBe(kept);
  // Lines logged after it are written as before, after the kept ones.
  out.write(line(5000));
  out.flushSync();
  expect(written()).toBe(kept + line(5000));
  expect(told).toHaveLength(2);
});

it('writes a block again by itself once the output takes it (the 250 ms timer)', async () => {
  const { out, told, state, written } = failingOutput();
  state.failWith = 'EIO';
  for (let n = 0; n < 40; n += 1) out.write(line(n));
  expect(told).toEqual([expect.stringContaining('(EIO')]);
  state.failWith = undefined;
  await vi.waitFor(() => expect(told).toHaveLength(2), { timeout: 5_000, interval: 50 });
  expect(told[1]).toContain('again; 0 were dropped');
  expect(written()).toBe(Array.from({ length: 40 }, (_, n) => line(n)).join(''));
});

it('stops writing, silently, when the reader has gone (EPIPE), its timer included', async () => {
  const { out, told, state } = failingOutput();
  state.failWith = 'EPIPE';
  for (let n = 0; n < 40; n += 1) out.write(line(n));
  const attempts = state.attempts;
  expect(attempts).toBeGreaterThan(0);
  for (let n = 0; n < 100; n += 1) out.write(line(n));
  out.flushSync();
  // Past two ticks of the 250 ms timer, which would try the waiting block again.
  await new Promise((resolve) => setTimeout(resolve, 600));
  expect(state.attempts).toBe(attempts);
  expect(told).toEqual([]);
});

it('tries 50 times, 100 ms apart, for a reader that has no room (EAGAIN), then drops lines instead of holding up requests', () => {
  const { out, told, state } = failingOutput();
  state.failWith = 'EAGAIN';
  // 16 KB: the 16th line fills the block, and its write waits: the first try and 50 more, 100 ms apart.
  for (let n = 0; n < 16; n += 1) out.write(line(n));
  expect(state.attempts).toBe(51);
  expect(told).toEqual([expect.stringContaining('its reader has read nothing for 5 s')]);
  // From then on one try per block, with no wait, until the reader reads again.
  for (let n = 0; n < 40; n += 1) out.write(line(n));
  out.flushSync();
  expect(state.attempts).toBeLessThanOrEqual(51 + 40 + 1);
  expect(told).toHaveLength(1);
}, 30_000);
