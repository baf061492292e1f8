/**
 * The machine-readable side of a bench: one result per bench (written by the bench to
 * BENCH_RESULT_FILE when the runner gives one), and the runner's combined summary.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import type { Comparison } from './comparison.ts';

export interface BenchResult {
  name: string;
  title: string;
  /** Conditions of the run: durations, repetitions, load tool, body sizes ... */
  settings: Record<string, string | number | boolean>;
  notes: string[];
  comparisons: Comparison[];
  startedAt: string;
  seconds: number;
}

export interface SkippedBench {
  name: string;
  skipped: string;
}

export interface FailedBench {
  name: string;
  failed: string;
}

export type BenchOutcome = BenchResult | SkippedBench | FailedBench;

export interface Summary {
  createdAt: string;
  node: string;
  cpus: number;
  /** 1, 5 and 15-minute load averages when the run began and ended. */
  loadAverage: { start: number[]; end: number[] };
  benches: BenchOutcome[];
  /** Every comparison with a target: how many met it. */
  targets: { met: number; notMet: number };
}

export const resultFileVariable = 'BENCH_RESULT_FILE';

export function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a bench's result where the runner asked for it; standalone, prints nothing more. */
export function writeBenchResult(result: BenchResult): void {
  const path = process.env[resultFileVariable];
  if (path) writeJson(path, result);
}

export function readBenchResult(path: string): BenchResult {
  return JSON.parse(readFileSync(path, 'utf8')) as BenchResult;
}

export function machine(): Pick<Summary, 'node' | 'cpus'> & { loadAverage: number[] } {
  return { node: process.version, cpus: cpus().length, loadAverage: loadavg().map((n) => Number(n.toFixed(2))) };
}

export function summarize(benches: BenchOutcome[], startLoad: number[], createdAt: string): Summary {
  const comparisons = benches.flatMap((bench) => ('comparisons' in bench ? bench.comparisons : []));
  const { node, cpus: cores, loadAverage: end } = machine();
  return {
    createdAt,
    node,
    cpus: cores,
    loadAverage: { start: startLoad, end },
    benches,
    targets: {
      met: comparisons.filter((c) => c.met === true).length,
      notMet: comparisons.filter((c) => c.met === false).length,
    },
  };
}
