/**
 * Runs a subject and its baselines in turn, A B A B A B ..., so that a slow moment of the
 * machine falls on all of them alike; each step returns one sample (a rate or a time).
 */
import { minimumRepetitions } from './settings.ts';

export type Step = () => Promise<number> | number;

export async function interleave<Name extends string>(
  repetitions: number,
  steps: Record<Name, Step>,
  onSample?: (name: Name, repetition: number, value: number) => void,
): Promise<Record<Name, number[]>> {
  if (repetitions < minimumRepetitions)
    throw new Error(`at least ${minimumRepetitions} repetitions, got ${repetitions}`);
  const names = Object.keys(steps) as Name[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Name, number[]>;
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const name of names) {
      const value = await steps[name]();
      if (!Number.isFinite(value)) throw new Error(`${name}: sample ${repetition + 1} is ${value}`);
      samples[name].push(value);
      onSample?.(name, repetition, value);
    }
  }
  return samples;
}
