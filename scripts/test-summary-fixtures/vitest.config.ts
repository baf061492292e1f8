/** The fixtures of scripts/test-summary.test.ts, run as a suite of their own. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { root: import.meta.dirname, include: ['*.fixture.ts'] },
});
