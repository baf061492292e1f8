/**
 * Where a call's time goes: a CPU profile (V8's sampler, every 100 µs) of CALLS sequential
 * calls of one contender of `sdk-client` (support/client-contenders.ts), summarized by self
 * time per file and per function, in µs per call. Profile `sdk` and then `fetch` (or `bare`)
 * and compare the two: what the SDK adds is in the differences. The server shares the
 * process, so its share of each call is in both. The .cpuprofile is written too, for
 * Chrome's DevTools.
 *
 * Run: npm run build -w @ocs/sdk && npx tsx packages/sdk/bench/profile-client.ts sdk 30000
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startContenders, type Contender } from './support/client-contenders.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const name = (process.argv[2] ?? 'sdk') as Contender;
const calls = Number(process.argv[3] ?? 30_000);
const contenders = await startContenders();
const run = contenders.run[name];
if (!run) throw new Error(`unknown contender ${name}: sdk, fetch or bare`);

for (let i = 0; i < 3_000; i++) await run();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const cpuStart = process.cpuUsage();
for (let i = 0; i < calls; i++) await run();
const used = process.cpuUsage(cpuStart);
const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
session.disconnect();
contenders.close();

const file = `profile-${name}.cpuprofile`;
writeFileSync(file, JSON.stringify(profile));

// Self time of each sample goes to the function at the top of its stack.
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
profile.samples.forEach((id, i) => {
  const node = nodes.get(id);
  if (!node) return;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/packages\//, 'packages/') || '(native)';
  const us = (profile.timeDeltas[i] ?? 0) / calls;
  add(byFile, where, us);
  add(byFunction, `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`, us);
});
const top = (map: Map<string, number>, n: number) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `  ${us.toFixed(2).padStart(7)} µs  ${key}`)
    .join('\n');
console.log(`${name}: ${calls} calls, CPU ${((used.user + used.system) / calls).toFixed(1)} µs/call; ${file}`);
console.log(`self time per call, by file:\n${top(byFile, 15)}`);
console.log(`self time per call, by function:\n${top(byFunction, 30)}`);
