/**
 * `npm run bench -w @ocs/server` (alone: `node --expose-gc --import tsx bench/delivery.bench.ts`
 * from packages/server): signed `prospect_response` deliveries per second through the real
 * worker and the Node transport, to a node:http receiver in a child process on loopback.
 * Target: at least 2,000 deliveries/s, with the process's memory flat over the run.
 *
 * - Baseline, measured in the same run: the same number of signed POSTs made directly with
 *   the transport at the same concurrency, with no store (what the worker adds is the ratio).
 * - Memory store: replies keep arriving while the worker drains (at most 5,000 waiting), as in
 *   a running server; the store keeps its last 10,000 finished deliveries.
 * - PostgreSQL (DATABASE_URL): the outbox is filled first, then drained; the rows live in the
 *   database, so the process holds only what is in flight.
 * Memory (RSS and heapUsed after a GC when --expose-gc is given) is sampled at the start, at
 * every 10 % of deliveries, and at the end; "flat" means no later sample's heapUsed is 10 MB
 * or more above the 10 % one (the first 10 % fill the memory store's kept history; memory
 * given back at the end, when the backlog drains, is not growth).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { sign } from '@ocs/sdk/webhooks';
import { createDeliveryWorker } from '../src/delivery/worker.ts';
import { systemClock } from '../src/domain/clock.ts';
import { createNodeWebhookTransport, type NodeWebhookTransport } from '../src/node/webhook-transport.ts';
import { createMemoryStore } from '../src/store/memory/index.ts';
import { openSqlStore } from '../src/store/sql/index.ts';
import type { Store } from '../src/store/types.ts';
import { deliveryFixtures, randomKey } from '../test/support/delivery-fixtures.ts';

const total = Number(process.env.BENCH_DELIVERIES ?? 100_000);
const concurrency = 64;
const target = 2_000;
const secret = 'whsec_bench_secret_0123456789abcdef';
const databaseUrl = process.env.DATABASE_URL;
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
  stop(): Promise<void>;
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
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child: ChildProcess = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout?.once('data', (chunk) => resolve(Number(chunk))));
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/hook`,
    count: async () => Number(await (await fetch(origin)).text()),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface MemorySample {
  label: string;
  rss: number;
  heapUsed: number;
}

function sampleMemory(label: string): MemorySample {
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { label, rss, heapUsed };
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The same number of signed POSTs, made directly with the transport: no store, no worker. */
async function baseline(transport: NodeWebhookTransport, url: string): Promise<number> {
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
  if (failures > 0) throw new Error(`baseline: ${failures} requests failed`);
  return total / ((performance.now() - started) / 1000);
}

interface WorkerRun {
  rate: number;
  samples: MemorySample[];
}

/**
 * Delivers `total` events through the worker on `store`. With `backlog`, events are enqueued
 * while it drains (at most `backlog` waiting); without, all are enqueued before the clock starts.
 */
async function runWorker(
  store: Store,
  transport: NodeWebhookTransport,
  url: string,
  backlog?: number,
): Promise<WorkerRun> {
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
  const samples = [sampleMemory('start')];
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
      samples.push(sampleMemory(`${nextSample * 10}%`));
      nextSample += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  samples.push(sampleMemory('end'));
  if (worker.counts.failed > 0 || worker.counts.delivered !== total) {
    throw new Error(`expected ${total} delivered, got ${JSON.stringify(worker.counts)}`);
  }
  return { rate: total / seconds, samples };
}

function report(label: string, run: WorkerRun, baselineRate: number): string[] {
  const tenthIndex = Math.max(
    0,
    run.samples.findIndex((s) => s.label === '10%'),
  );
  const tenth = run.samples[tenthIndex]?.heapUsed ?? 0;
  const growth = Math.max(...run.samples.slice(tenthIndex).map((s) => s.heapUsed)) - tenth;
  return [
    `${label.padEnd(22)} ${fmt(run.rate).padStart(7)} deliveries/s  (target >= ${fmt(target)}: ${run.rate >= target ? 'met' : 'NOT met'}; ${(run.rate / baselineRate).toFixed(2)} x baseline)`,
    `  memory: ${run.samples.map((s) => `${s.label} rss ${mb(s.rss)} heap ${mb(s.heapUsed)}`).join(' | ')}`,
    `  heapUsed, highest after the 10% sample: +${mb(growth)} -> ${growth < 10 * 1_048_576 ? 'flat' : 'NOT flat'}`,
  ];
}

const receiver = await startReceiver();
const transport = createNodeWebhookTransport({ allowInsecure: true, maxSockets: concurrency });
const lines: string[] = [];
try {
  lines.push(
    `${fmt(total)} signed deliveries to a loopback node:http receiver (child process), ${concurrency} in flight, ${eventBody(randomKey()).length}-byte body${gc ? '' : ' (run with --expose-gc for stable heap figures)'}`,
  );
  const before = await receiver.count();
  const baselineRate = await baseline(transport, receiver.url);
  lines.push(
    `${'baseline (transport)'.padEnd(22)} ${fmt(baselineRate).padStart(7)} POSTs/s (signed, no store, no worker)`,
  );

  const memory = await runWorker(createMemoryStore(), transport, receiver.url, 5_000);
  lines.push(...report('worker, memory store', memory, baselineRate));

  if (databaseUrl) {
    const schema = `bench_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const store = await openSqlStore({ databaseUrl, schema });
    try {
      const postgres = await runWorker(store, transport, receiver.url);
      lines.push(...report('worker, PostgreSQL', postgres, baselineRate));
    } finally {
      await store.client.query(`drop schema "${schema}" cascade`);
      await store.close();
    }
  } else {
    lines.push('worker, PostgreSQL     skipped (set DATABASE_URL)');
  }
  const received = (await receiver.count()) - before;
  lines.push(`receiver counted ${fmt(received)} requests (expected ${fmt(total * (databaseUrl ? 3 : 2))})`);
} finally {
  transport.close();
  await receiver.stop();
}
console.log(lines.join('\n'));
