/**
 * The sandbox clock's time lives in the store too: a restarted server keeps the time it was
 * advanced to (else retries and steps scheduled in the advanced future would stall), and
 * servers sharing a database share it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SandboxClock } from '../../src/domain/clock.ts';
import { openSqlStore } from '../../src/store/sql/index.ts';
import { createTestApi } from '../support/api.ts';
import { describeBackends } from '../support/backends.ts';

const frozen = { now: () => new Date('2026-11-09T09:00:00.000Z') };
const offsetOf = async (api: Awaited<ReturnType<typeof createTestApi>>) =>
  (await api.call<{ clock: { offset_seconds: number } }>('GET', '/v1/sandbox/clock')).body.clock.offset_seconds;

describeBackends('the sandbox clock in the store', (store) => {
  it('is shared by the servers on one store, and never moves back', async () => {
    const one = await createTestApi(store(), { clock: new SandboxClock(frozen), config: { sandbox: true } });
    const two = await createTestApi(store(), { clock: new SandboxClock(frozen), config: { sandbox: true } });
    await one.call('POST', '/v1/sandbox/clock/advance', { body: { days: 3 } });
    expect(await offsetOf(two)).toBe(0);
    await two.app.engine.runDue();
    expect(await offsetOf(two)).toBe(3 * 86_400);
    await two.call('POST', '/v1/sandbox/clock/advance', { body: { days: 1 } });
    await one.app.engine.syncClock();
    expect(await offsetOf(one)).toBe(4 * 86_400);
    await store().sandbox.saveClockOffset(1000);
    expect(await store().sandbox.clockOffset()).toBe(4 * 86_400_000);
  });

  it('advances a day from the shared time, on a server that had not caught up, and queued advances add up', async () => {
    const one = await createTestApi(store(), { clock: new SandboxClock(frozen), config: { sandbox: true } });
    const two = await createTestApi(store(), { clock: new SandboxClock(frozen), config: { sandbox: true } });
    await one.call('POST', '/v1/sandbox/clock/advance', { body: { days: 1 } });
    // `two` has not run a round since: its own clock is a day behind the store's.
    const advanced = await two.call<{ clock: { offset_seconds: number } }>('POST', '/v1/sandbox/clock/advance', {
      body: { days: 1 },
    });
    expect(advanced.body.clock.offset_seconds).toBe(2 * 86_400);
    await Promise.all([
      one.call('POST', '/v1/sandbox/clock/advance', { body: { days: 1 } }),
      one.call('POST', '/v1/sandbox/clock/advance', { body: { days: 1 } }),
    ]);
    expect(await offsetOf(one)).toBe(4 * 86_400);
    // `to` is checked against the shared time too.
    const backwards = await two.call('POST', '/v1/sandbox/clock/advance', {
      body: { to: '2026-11-12T09:00:00.000Z' },
    });
    expect(backwards.status).toBe(400);
  });
});

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

it('survives a restart of a server on PGlite', async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ocs-clock-'));
  const first = await openSqlStore({ dataDir });
  const before = await createTestApi(first, { clock: new SandboxClock(frozen), config: { sandbox: true } });
  await before.call('POST', '/v1/sandbox/clock/advance', { body: { days: 14 } });
  await first.close();

  const second = await openSqlStore({ dataDir });
  const after = await createTestApi(second, { clock: new SandboxClock(frozen), config: { sandbox: true } });
  await after.app.engine.syncClock();
  expect(await offsetOf(after)).toBe(14 * 86_400);
  await second.close();
});
