/**
 * The knobs every bench shares, from the environment: how many interleaved repetitions
 * (BENCH_REPETITIONS, at least 3) and how long one load sample lasts (BENCH_SECONDS).
 */

export const minimumRepetitions = 3;

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** Repetitions of each subject and baseline; `fallback` for benches whose samples are short. */
export function repetitions(fallback = minimumRepetitions): number {
  return Math.max(minimumRepetitions, Math.round(positiveNumber('BENCH_REPETITIONS', fallback)));
}

/** Seconds of load per sample (wrk or autocannon, or a timed loop), after its warm-up. */
export function sampleSeconds(fallback = 5): number {
  return positiveNumber('BENCH_SECONDS', fallback);
}
