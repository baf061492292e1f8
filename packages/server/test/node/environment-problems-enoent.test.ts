/**
 * ENOENT is a "cannot use <path>" line only when it came from making the data directory (a
 * parent that cannot be made, under /proc): elsewhere it is a missing file (a broken install),
 * which no other --data-dir would mend.
 */
import { expect, it } from 'vitest';
import { makeDataDir } from '../../src/node/data-dir-access.ts';
import { environmentProblem } from '../../src/node/environment-problems.ts';

it.skipIf(process.platform !== 'linux')('says a data directory that cannot be made in one line with what to do', () => {
  let thrown: unknown;
  try {
    makeDataDir('/proc/ocs-no-such-dir/data');
  } catch (error) {
    thrown = error;
  }
  expect(environmentProblem(thrown)).toMatch(
    /^cannot use \/proc\/ocs-no-such-dir\S* \(ENOENT\): pass --data-dir with a directory this user can write\.$/,
  );
});

it('leaves another ENOENT to the internal error, naming the file', () => {
  const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/x/pglite.wasm'"), {
    code: 'ENOENT',
    path: '/x/pglite.wasm',
  });
  expect(environmentProblem(missing)).toBeNull();
});
