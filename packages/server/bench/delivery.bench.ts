/**
 * `deliveries-postgres` and `deliveries-memory` (this file, with `postgres` or `memory`):
 * signed `prospect_response` deliveries per second through the real worker and the Node
 * transport, to a node:http receiver in a child process on a free loopback port, beside the
 * transport alone (the same number of signed POSTs at the same concurrency, no store, no
 * worker), interleaved: baseline, worker, baseline, worker ...
 *   - PostgreSQL (a scratch database): the outbox is filled first, then drained. Target: at
 *     least 0.3 x the transport alone, with the heap flat over every run.
 *   - Memory store: replies keep arriving while the worker drains (at most 5,000 waiting), as
 *     in a running server. For information.
 * Memory (RSS and heapUsed after a GC; run with --expose-gc, as the runner does) is sampled
 * at the start, at every 10 % of deliveries and at the end; "flat" means no later sample's
 * heapUsed is 10 MB or more above the reference sample: the 10 % one on PostgreSQL; on the
 * memory store, the first once its kept history (the last 10,000 finished deliveries) is full.
 * Memory given back at the end, when the backlog drains, is not growth.
 * BENCH_DELIVERIES per sample (default 20,000), BENCH_REPETITIONS (default 3).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { sign } from '@ocs/sdk/webhooks';
import { runBench } from '../../../bench/harness/bench.ts';
import { type Check, compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { addressFromOutput } from '../../../bench/harness/ports.ts';
import { createScratchDatabase, databaseUrl } from '../../../bench/harness/postgres.ts';
import { stop, track } from '../../../bench/harness/processes.ts';
import { repetitions } from '../../../bench/harness/settings.ts';
import { createDeliveryWorker } from '../src/delivery/worker.ts';
import { systemClock } from '../src/domain/clock.ts';
import { createNodeWebhookTransport, type NodeWebhookTransport } from '../src/node/webhook-transport.ts';
import { createMemoryStore } from '../src/store/memory/index.ts';
import { openSqlStore } from '../src/store/sql/index.ts';
import type { Store } from '../src/store/types.ts';
import { deliveryFixtures, randomKey } from '../test/support/delivery-fixtures.ts';

const backend = process.argv[2];
if (backend !== 'postgres' && backend !== 'memory') throw new Error('usage: delivery.bench.ts postgres|memory');
const total = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const reps = repetitions();
const concurrency = 64;
/** The memory store keeps this many finished deliveries (its history fills before the heap is flat). */
const memoryStoreHistory = 10_000;
const secret = 'whsec_bench_secret_0123456789abcdef';
const encoder = new TextEncoder();
const gc = (globalThis as { gc?: () => void }).gc;

/** About the size of a real event: a lead, an AI analysis and a message. */
function eventBody(key: string): string {
  return JSON.stringify({
    event: 'prospect_response',
    idempotency_key: key,
    sequence_lead_id: crypto.randomUUID(),
    timestamp: new Date().toISOString().replace('Z', '000+00:00'),
    channel: 'email',
    sender: { email: { account_id: 'acc_em_1', platform_username: 'alex', email: 'alex@sender.example.com' } },
    lead: {
      annual_revenue: 12_000_000,
      company: 'Northwind Analytics',
      email: 'dana.whitfield@northwind.example.com',
      first_name: 'Dana',
      industry: 'Software',
      last_name: 'Whitfield',
      linkedin_profile: 'https://www.linkedin.com/in/dana-whitfield',
      title: 'VP Revenue Operations',
      website: 'https://northwind.example.com',
      employee_count: 240,
      custom_fields: { region: 'EMEA', source: 'webinar' },
    },
    ai_response: {
      agent_action: 'reply',
      agent_version: 2,
      complete: false,
      conversation_status: 'engaged_interested',
      escalation_reason: null,
      goal: 'Book a 20-minute call',
      goal_status: 'link_sent',
      out_of_office: false,
      responder_message: 'Great to hear, Dana. Here is a link to pick a time that suits you this week.',
      sdr_brief: 'Interested in pipeline analytics; asked about pricing for 50 seats.',
      sentiment: 'positive',
    },
    campaign: 'Q4 Founders Outreach',
    conversation_owner: 'service',
    prospect_message: 'Thanks, this looks relevant. Could we talk on Thursday? Also, what does it cost for 50 seats?',
    variation: 'a',
  });
}

interface Receiver {
  url: string;
  count(): Promise<number>;
  child: ChildProcess;
}

/** A node:http receiver in its own process, so that it does not share the worker's event loop. */
async function startReceiver(): Promise<Receiver> {
  const source = `
    let count = 0;
    const server = require('node:http').createServer((request, response) => {
      if (request.method === 'GET') return response.end(String(count));
      request.resume();
      request.on('end', () => { count += 1; response.writeHead(204).end(); });
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));`;
  const child = track(spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const origin = await addressFromOutput(child.stdout as NonNullable<ChildProcess['stdout']>, /listening on (\S+)/);
  return { url: `${origin}/hook`, count: async () => Number(await (await fetch(origin)).text()), child };
}

interface MemorySample {
  /** Deliveries finished when the sample was taken. */
  finished: number;
  label: string;
  rss: number;
  heapUsed: number;
}

function sampleMemory(label: string, finished: number): MemorySample {
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { label, finished, rss, heapUsed };
}

const mb = (bytes: number) => bytes / 1_048_576;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same number of signed POSTs, made directly with the transport: no store, no worker. */
async function transportAlone(transport: NodeWebhookTransport, url: string): Promise<number> {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        const body = encoder.encode(eventBody(randomKey()));
        const headers = {
          'Content-Type': 'application/json',
          'User-Agent': 'ocs-webhooks/1',
          'X-Signature-256': await sign(body, secret),
        };
        const outcome = await transport.send({ url, body, headers });
        if (!outcome.ok) failures += 1;
      }
    }),
  );
  if (failures > 0) throw new Error(`transport alone: ${failures} requests failed`);
  return total / ((performance.now() - started) / 1000);
}

/**
 * Delivers `total` events through the worker on `store`. With `backlog`, events are enqueued
 * while it drains (at most `backlog` waiting); without, all are enqueued before the clock starts.
 * Returns deliveries per second; the memory samples go to `samples`.
 */
async function throughWorker(
  store: Store,
  transport: NodeWebhookTransport,
  url: string,
  samples: MemorySample[],
  backlog?: number,
): Promise<number> {
  const f = await deliveryFixtures(store);
  await f.webhook({ url, secret });
  let enqueued = 0;
  const enqueue = async (count: number) => {
    await store.transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        const now = new Date().toISOString();
        const key = randomKey();
        await tx.deliveries.enqueue(
          f.delivery({ idempotency_key: key, body: eventBody(key), created_at: now, next_attempt_at: now }),
        );
      }
    });
    enqueued += count;
  };
  if (backlog === undefined) while (enqueued < total) await enqueue(Math.min(1_000, total - enqueued));

  let fatal: unknown = null;
  const worker = createDeliveryWorker({
    store,
    transport,
    clock: systemClock,
    concurrency,
    batchSize: 100,
    onError: (error) => {
      fatal = error;
    },
  });
  samples.push(sampleMemory('start', 0));
  const started = performance.now();
  worker.start({ pollMs: 20 });
  const finished = () => worker.counts.delivered + worker.counts.failed;
  let nextSample = 1;
  while (finished() < total) {
    if (fatal !== null) throw fatal;
    if (backlog !== undefined && enqueued < total && enqueued - finished() < backlog) {
      await enqueue(Math.min(1_000, total - enqueued));
      worker.notify();
    } else {
      await sleep(5);
    }
    while (nextSample < 10 && finished() >= (total * nextSample) / 10) {
      samples.push(sampleMemory(`${nextSample * 10}%`, finished()));
      nextSample += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  samples.push(sampleMemory('end', finished()));
  if (worker.counts.failed > 0 || worker.counts.delivered !== total) {
    throw new Error(`expected ${total} delivered, got ${JSON.stringify(worker.counts)}`);
  }
  return total / seconds;
}

/** Heap growth of one run: the highest heapUsed after the reference sample, less the reference's. */
function heapGrowth(samples: MemorySample[]): { growth: number; from: string } {
  const reference = backend === 'memory' ? Math.max(total / 10, Math.min(total, memoryStoreHistory)) : total / 10;
  const index = Math.max(
    0,
    samples.findIndex((s) => s.label !== 'start' && s.finished >= reference),
  );
  const after = samples.slice(index, -1); // the end sample: the backlog has drained, not growth
  const base = samples[index]?.heapUsed ?? 0;
  return { growth: Math.max(0, ...after.map((s) => s.heapUsed - base)), from: samples[index]?.label ?? '?' };
}

await runBench(
  {
    name: `deliveries-${backend}`,
    title: `signed deliveries through the worker, ${backend === 'postgres' ? 'PostgreSQL' : 'memory store'}, vs the transport alone`,
  },
  async (bench) => {
    const receiver = await startReceiver();
    const transport = createNodeWebhookTransport({ allowInsecure: true, maxSockets: concurrency });
    const url = databaseUrl();
    if (backend === 'postgres' && !url) throw new Error('set DATABASE_URL');
    const scratch = backend === 'postgres' && url ? await createScratchDatabase(url) : null;
    const sqlStore = scratch ? await openSqlStore({ databaseUrl: scratch.url }) : null;
    try {
      bench.set('deliveries per sample', total);
      bench.set('in flight', concurrency);
      bench.set('repetitions', reps);
      bench.set('body bytes', eventBody(randomKey()).length);
      if (!gc) bench.note('run with --expose-gc for stable heap figures');
      const before = await receiver.count();
      const runs: MemorySample[][] = [];
      await transportAlone(transport, receiver.url); // warm-up: JIT, sockets
      const samples = await interleave(
        reps,
        {
          transport: () => transportAlone(transport, receiver.url),
          worker: () => {
            const memory: MemorySample[] = [];
            runs.push(memory);
            return sqlStore
              ? throughWorker(sqlStore, transport, receiver.url, memory)
              : throughWorker(createMemoryStore(), transport, receiver.url, memory, 5_000);
          },
        },
        (name, repetition, value) => bench.progress(`${name} #${repetition + 1}: ${Math.round(value)}/s`),
      );
      const received = (await receiver.count()) - before;
      const expected = total * (2 * reps + 1);
      if (received !== expected) throw new Error(`the receiver counted ${received} requests, expected ${expected}`);

      const growths = runs.map(heapGrowth);
      const flat: Check = {
        name: 'heap flat',
        met: growths.every((g) => g.growth < 10 * 1_048_576),
        detail: `heapUsed growth after the ${growths[0]?.from} sample, per run: ${growths.map((g) => `+${mb(g.growth).toFixed(1)} MB`).join(', ')} (flat: under 10 MB)`,
      };
      for (const [i, run] of runs.entries()) {
        bench.note(
          `memory, run ${i + 1}: ${run.map((s) => `${s.label} rss ${mb(s.rss).toFixed(0)} heap ${mb(s.heapUsed).toFixed(1)}`).join(' | ')} (MB)`,
        );
      }
      bench.add(
        compare({
          name: `worker on ${backend === 'postgres' ? 'PostgreSQL' : 'the memory store'} / transport alone`,
          subject: { label: `worker, ${backend}`, unit: 'deliveries/s', samples: samples.worker },
          baseline: { label: 'transport alone (signed POSTs)', unit: 'POSTs/s', samples: samples.transport },
          ...(backend === 'postgres' ? { target: { op: '>=' as const, value: 0.3 } } : {}),
          // The memory store's history never fills in a run shorter than it: no flat heap to judge.
          checks: backend === 'memory' && total <= memoryStoreHistory ? [] : [flat],
        }),
      );
    } finally {
      transport.close();
      await stop(receiver.child);
      await sqlStore?.close();
      await scratch?.drop();
    }
  },
);
