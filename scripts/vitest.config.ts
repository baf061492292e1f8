/** The tests of the root scripts (run by scripts/test-workspaces.ts after the workspaces). */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**'],
  },
});
