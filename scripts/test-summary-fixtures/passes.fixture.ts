// Run by scripts/test-summary.test.ts beside fails-in-before-all.fixture.ts: a file that passes.
import { expect, it } from 'vitest';

it('passes', () => {
  expect(1 + 1).toBe(2);
});

it.skip('is skipped', () => {});
