/**
 * `serve` vacuums the tables an erasure writes once after it listens (node/reclaim-after-start.ts):
 * an erasure whose own vacuum a stopped process never ran. On a store that counts its calls:
 * once, after the delay; a failure is one warning; `stop()` before the delay cancels it.
 */
import { expect, it } from 'vitest';
import type { LogEntry } from '../../src/http/logger.ts';
import { reclaimAfterStart } from '../../src/node/reclaim-after-start.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';
import type { ReclaimLog } from '../../src/store/types.ts';
import { serveLogging } from '../support/serve-logging.ts';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('runs once in serve, soon after the server listens, and says what the vacuum says', async () => {
  const store = createMemoryStore();
  let calls = 0;
  store.reclaimErased = async (log?: ReclaimLog) => {
    calls++;
    log?.({ level: 'info', message: 'vacuumed' });
  };
  const { running: server, lines } = await serveLogging({ store, reclaimAfterStartMs: 0 });
  try {
    for (let waited = 0; waited < 5000 && calls === 0; waited += 20) await settle(20);
    await settle(100);
    expect(calls).toBe(1);
    expect(lines).toContainEqual({ level: 'info', message: 'vacuumed' });
  } finally {
    await server.close();
  }
});

it('logs one warning when the vacuum fails, and runs nothing once stopped', async () => {
  const lines: LogEntry[] = [];
  const logger = { log: (entry: LogEntry) => lines.push(entry) };
  const failing = createMemoryStore();
  failing.reclaimErased = () => Promise.reject(new Error('database gone'));
  reclaimAfterStart(failing, logger, 0);
  await settle(50);
  expect(lines).toEqual([
    { level: 'warn', message: 'erased tables not vacuumed after start', error: 'Error: database gone' },
  ]);

  const stopped = createMemoryStore();
  let calls = 0;
  stopped.reclaimErased = async () => {
    calls++;
  };
  await reclaimAfterStart(stopped, logger, 20).stop();
  await settle(60);
  expect(calls).toBe(0);
});
