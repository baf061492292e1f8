import { uuidV7 } from './uuid-v7.ts';

/**
 * IDs of new records: time-ordered UUIDs (v7, see uuid-v7.ts). The mock seeds its data with a seeded source instead
 * (`withIdSource`), so that the same seed gives the same IDs run after run.
 */
let source: (() => string) | null = null;

/** A new record ID: from the installed source while `withIdSource` runs, else a UUIDv7. */
export function newId(): string {
  return source ? source() : uuidV7();
}

/**
 * Runs `work` with `ids` as the source of every new record ID, then puts the previous
 * source back. The source is process-wide: run only one `work` at a time (the mock queues
 * its seeding), and nothing else that creates records meanwhile.
 *
 * @example
 * await withIdSource(seededUuids(42), () => seed(app));
 */
export async function withIdSource<T>(ids: () => string, work: () => Promise<T>): Promise<T> {
  const previous = source;
  source = ids;
  try {
    return await work();
  } finally {
    source = previous;
  }
}
