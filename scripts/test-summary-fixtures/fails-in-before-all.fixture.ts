// Run by scripts/test-summary.test.ts (not by the scripts' suite): a file whose beforeAll
// throws, as the browser tests do without Chromium, so that its tests never run.
import { beforeAll, expect, it } from 'vitest';

beforeAll(() => {
  throw new Error('Chromium is not installed (fixture)');
});

it('never runs', () => {
  expect(true).toBe(true);
});
