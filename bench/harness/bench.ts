/**
 * The frame of one bench file: collects its comparisons, prints its human table, writes its
 * JSON result for the runner, and stops whatever child processes it left running.
 *
 *   await runBench({ name: 'sdk-client', title: '...' }, async (bench) => {
 *     const samples = await interleave(repetitions(), { subject: ..., baseline: ... });
 *     bench.add(compare({ name, subject: {...}, baseline: {...}, target: { op: '<=', value: 1.05 } }));
 *   });
 */
import type { Comparison } from './comparison.ts';
import { stopAll } from './processes.ts';
import { formatBench } from './report.ts';
import { type BenchResult, writeBenchResult } from './summary.ts';

export interface BenchContext {
  /** Conditions worth printing beside the figures (durations, sizes, tools). */
  set(key: string, value: string | number | boolean): void;
  note(text: string): void;
  add(comparison: Comparison): void;
  /** Progress on stderr, so that a long bench shows it is alive. */
  progress(text: string): void;
}

export async function runBench(
  meta: { name: string; title: string },
  body: (bench: BenchContext) => Promise<void>,
): Promise<void> {
  const startedAt = new Date();
  const started = performance.now();
  const result: BenchResult = {
    name: meta.name,
    title: meta.title,
    settings: {},
    notes: [],
    comparisons: [],
    startedAt: startedAt.toISOString(),
    seconds: 0,
  };
  const context: BenchContext = {
    set: (key, value) => {
      result.settings[key] = value;
    },
    note: (text) => result.notes.push(text),
    add: (comparison) => result.comparisons.push(comparison),
    progress: (text) => process.stderr.write(`  [${meta.name}] ${text}\n`),
  };
  try {
    await body(context);
  } catch (error) {
    await stopAll();
    console.error(`${meta.name} failed:`, error);
    process.exit(1);
  }
  await stopAll();
  result.seconds = (performance.now() - started) / 1000;
  console.log(formatBench(result));
  writeBenchResult(result);
}
