/**
 * `mock-journal`: what the request journal (on by default, 1,000 entries) costs. The same
 * GET, a page of 20 leads (about 9 KB of answer to record), with the journal on and off
 * (`journal: { limit: 0 }`), interleaved:
 * - `mock.fetch()` in a loop, REQUESTS per sample (default 2,000): no MSW and no network, so
 *   the journal's share is the largest it can be; reported, with a floor of 0.5;
 * - through MSW (`setupServer`, the global `fetch`), as a test suite calls the mock: both
 *   mocks behind one MSW server at two base URLs, REQUESTS per sample;
 * - `ocs-mock` (the built CLI, `--journal-limit 0` for off), 32 connections on loopback (wrk,
 *   else autocannon), BENCH_SECONDS per sample (default 5).
 * Target (the mock's own) through MSW and on `ocs-mock`: with the journal, at least 0.8 x the
 * requests per second without. BENCH_REPETITIONS (default 3).
 */
import { createOcsMock, type OcsMock } from '@ocs/mock/node';
import { setupServer } from 'msw/node';
import { runBench } from '../../../bench/harness/bench.ts';
import { compare } from '../../../bench/harness/comparison.ts';
import { interleave } from '../../../bench/harness/interleave.ts';
import { load, loadTool } from '../../../bench/harness/load.ts';
import { repetitions, sampleSeconds } from '../../../bench/harness/settings.ts';
import { expectOk, startStandalone } from './support/standalone.ts';

const reps = repetitions();
const seconds = sampleSeconds();
const requests = Number(process.env.REQUESTS ?? 2_000);
const connections = 32;
const path = '/leads?limit=20';
const target = { op: '>=', value: 0.8 } as const;
const unlimited = { perEndpoint: 1e9, total: 1e9 };

await runBench({ name: 'mock-journal', title: 'the request journal on vs off, requests per second' }, async (bench) => {
  bench.set('in process', `GET ${path} x ${requests} per sample, with mock.fetch() and through MSW`);
  bench.set('ocs-mock', `${loadTool}, ${connections} connections, ${seconds} s per sample after a warm-up`);
  bench.set('repetitions', reps);

  const on = await createOcsMock({ rateLimits: unlimited, baseUrl: 'https://on.ocs.test/v1' });
  const off = await createOcsMock({ rateLimits: unlimited, baseUrl: 'https://off.ocs.test/v1', journal: { limit: 0 } });
  const server = setupServer(...on.handlers, ...off.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  const rate = async (mock: OcsMock, send: (request: Request) => Promise<Response>) => {
    const request = new Request(`${mock.baseUrl}${path}`, { headers: { Authorization: `Bearer ${mock.apiKey}` } });
    const started = performance.now();
    for (let i = 0; i < requests; i++) await (await send(request.clone())).arrayBuffer();
    return requests / ((performance.now() - started) / 1000);
  };
  const viaFetch = (mock: OcsMock) => rate(mock, (request) => mock.fetch(request));
  const viaMsw = (mock: OcsMock) => rate(mock, (request) => fetch(request));
  for (const mock of [on, off]) {
    await viaFetch(mock); // warm-up
    await viaMsw(mock);
  }
  const kept = () => ({
    name: 'the journal kept its last 1,000',
    met: on.requests.all().length === 1000 && on.requests.dropped > 0 && off.requests.all().length === 0,
    detail: `${on.requests.all().length} kept, ${on.requests.dropped} dropped; none with limit 0`,
  });
  const inProcess = [
    { name: `mock.fetch(GET ${path})`, run: viaFetch, target: { op: '>=', value: 0.5 } as const },
    { name: `MSW, fetch(GET ${path})`, run: viaMsw, target },
  ];
  for (const { name, run, target: floor } of inProcess) {
    const samples = await interleave(reps, { on: () => run(on), off: () => run(off) }, (which, repetition, value) =>
      bench.progress(`${name}, journal ${which} #${repetition + 1}: ${Math.round(value)}/s`),
    );
    bench.add(
      compare({
        name: `${name}: journal on / off`,
        subject: { label: 'journal on', unit: 'req/s', samples: samples.on },
        baseline: { label: 'journal off', unit: 'req/s', samples: samples.off },
        target: floor,
        checks: [kept()],
      }),
    );
  }
  server.close();

  const standalone = {
    on: await startStandalone({ raiseLimits: true }),
    off: await startStandalone({ raiseLimits: true, args: ['--journal-limit', '0'] }),
  };
  const targetOf = (mock: { url: string; apiKey: string }) => ({
    url: `${mock.url}${path}`,
    headers: { Authorization: `Bearer ${mock.apiKey}` },
  });
  const targets = { on: targetOf(standalone.on), off: targetOf(standalone.off) };
  const non2xx: number[] = [];
  const loaded = async (name: 'on' | 'off') => {
    const result = await load({ ...targets[name], connections, durationSeconds: seconds });
    non2xx.push(result.non2xx);
    return result.requestsPerSecond;
  };
  for (const name of ['on', 'off'] as const) {
    await expectOk(targets[name].url, targets[name].headers);
    await load({ ...targets[name], connections, durationSeconds: 2 }); // warm-up
  }
  const overHttp = await interleave(
    reps,
    { on: () => loaded('on'), off: () => loaded('off') },
    (name, repetition, value) => bench.progress(`ocs-mock, journal ${name} #${repetition + 1}: ${Math.round(value)}/s`),
  );
  bench.add(
    compare({
      name: `ocs-mock GET /v1${path}: journal on / off`,
      subject: { label: 'journal on', unit: 'req/s', samples: overHttp.on },
      baseline: { label: 'journal off', unit: 'req/s', samples: overHttp.off },
      target,
      checks: [
        {
          name: 'every answer 2xx',
          met: non2xx.every((n) => n === 0),
          detail: `non-2xx per sample ${non2xx.join(', ')}`,
        },
      ],
    }),
  );
});
