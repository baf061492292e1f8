/** Driver errors (`pg` and PGlite share PostgreSQL's codes) as the store's own errors. */
import { UniqueViolation } from '../errors.ts';

const uniqueViolationCode = '23505';

/** Runs `work`, turning a unique violation into `UniqueViolation`; other errors pass through. */
export async function reportingUniqueViolations<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new UniqueViolation(error.constraint, { cause: error });
    throw error;
  }
}

function isUniqueViolation(error: unknown): error is { constraint: string } {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === uniqueViolationCode && typeof constraint === 'string';
}
