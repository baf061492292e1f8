/**
 * The stream of cases for a seed: fast-check picks a class (valid requests weigh three
 * times an attack class), an operation the class applies to, a valid request for it and the
 * attack's value. The same seed gives the same cases.
 */
import fc from 'fast-check';
import { validParts } from './generator.ts';
import { type FuzzCase, type FuzzClass, fuzzClasses } from './model.ts';
import { appliesTo, apply, payloadArbitrary } from './mutations.ts';
import { type FuzzOperation, fuzzOperations } from './operations.ts';

export function caseArbitrary(operations: FuzzOperation[] = fuzzOperations()): fc.Arbitrary<FuzzCase> {
  const byClass = new Map<FuzzClass, FuzzOperation[]>(
    fuzzClasses.map((cls) => [cls, operations.filter((op) => appliesTo(cls, op))]),
  );
  const classes = fuzzClasses.map((cls) => ({ weight: cls === 'valid' ? 3 : 1, arbitrary: fc.constant(cls) }));
  return fc
    .oneof(...classes)
    .chain((cls) => fc.tuple(fc.constant(cls), fc.constantFrom(...(byClass.get(cls) as FuzzOperation[]))))
    .chain(([cls, op]) =>
      fc.tuple(validParts(op), fc.nat(), payloadArbitrary(cls)).map(([valid, choice, payload]): FuzzCase => {
        const parts = apply(op, cls, valid, choice, payload);
        return {
          operationId: op.operationId,
          method: op.method,
          template: op.path,
          class: cls,
          note: parts.note,
          path: parts.path,
          query: parts.query,
          headers: parts.headers,
          body: parts.body,
          ...(parts.rawBody === undefined ? {} : { rawBody: parts.rawBody }),
          ...(parts.mustRefuse === undefined ? {} : { mustRefuse: parts.mustRefuse }),
        };
      }),
    );
}

/**
 * `count` cases for `seed`, in order, made `batch` at a time: fast-check's `path` starts a
 * sample at a given run, so the stream is the one a single sample of `count` gives (the same
 * seed replays the same cases), but a long session neither waits for nor holds them all.
 */
export function* generateCases(seed: number, count: number, batch = 100): Generator<FuzzCase> {
  const arbitrary = caseArbitrary();
  for (let start = 0; start < count; start += batch) {
    yield* fc.sample(arbitrary, { seed, path: String(start), numRuns: Math.min(batch, count - start) });
  }
}
