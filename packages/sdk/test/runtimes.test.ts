/**
 * The client and the webhook verifier on every runtime they claim (issue 12, item 6): the
 * same checks (test/runtimes/checks.js: a create and a get, a 429 retried after its
 * `Retry-After`, paging across three pages, a typed 404, a deadline against a route that
 * never answers, the verifier with a valid signature, a bad one and several secrets) run in
 * Node 20 (the Node running the tests), Node 22 and 24, Deno 2 and Bun 1 (the npm packages
 * of runtimes/), Debian's Chromium and edge-runtime, each against a scripted API on loopback
 * that records what it received. Each runtime imports the built package (dist/) through its
 * `exports`, as a user's code does; a missing runtime fails its test with one line.
 */
import { join } from 'node:path';
import { EdgeRuntime } from 'edge-runtime';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { requireRuntime, type RuntimeName } from '../../../scripts/test-support/runtimes.ts';
import { startServer } from './helpers/http.ts';
import type { RuntimeCheckInput } from './runtimes/types.ts';
import { startRuntimeApi } from './support/runtime-api.ts';
import { expectRuntimeChecks, nodeBuild, type RuntimeExpectation, webBuild } from './support/runtime-expect.ts';
import { runtimeApiScript, runtimeCheckInput } from './support/runtime-input.ts';
import {
  bundleChecks,
  type ChecksBundle,
  childTimeoutMs,
  parseLines,
  runProgram,
  runtimesDir,
} from './support/runtime-run.ts';

const testTimeout = childTimeoutMs + 10_000;
const program = join(runtimesDir, 'run-in-process.js');

/** On Node, Deno and Bun: the `node` build resolved, and the Web Crypto build by path. */
const bothBuilds = { resolved: nodeBuild, 'web build': webBuild };

/** Runs the checks as a program and asserts what they saw. */
async function checkProgram(
  executable: string,
  runtimeArgs: string[],
  expectation: RuntimeExpectation,
  env: NodeJS.ProcessEnv = {},
) {
  const api = await startRuntimeApi(runtimeApiScript());
  const input = runtimeCheckInput(api.server.baseUrl);
  const run = await runProgram(executable, [...runtimeArgs, program, JSON.stringify(input)], env);
  const reported = run.lines.map((line) => line.check).join(', ');
  expect(run.killed, `killed after ${childTimeoutMs} ms, having reported: ${reported}\n${run.noise}`).toBe(false);
  expect(run.exitCode, run.noise).toBe(0);
  expectRuntimeChecks(run.lines, api, input, expectation);
}

const npmNode = (name: RuntimeName, major: number) => () =>
  checkProgram(requireRuntime(name), [], {
    identity: { node: expect.stringMatching(new RegExp(`^${major}\\.`)), deno: null, bun: null },
    clientRuntime: 'node',
    webhookEntries: bothBuilds,
  });

/**
 * `deno run` in an npm project, as a Deno user of the package runs it: `@ocs/sdk` resolves
 * from the project's node_modules (what Deno 2 does beside a package.json; the flag says so).
 */
const checkDeno = (permissions: string[]) =>
  checkProgram(
    requireRuntime('deno'),
    // --no-lock: leave no deno.lock in the repository.
    ['run', '--no-prompt', '--node-modules-dir=manual', '--no-lock', ...permissions],
    { identity: { deno: expect.stringMatching(/^2\./), bun: null }, clientRuntime: 'deno', webhookEntries: bothBuilds },
    // No look for a newer Deno: the tests reach nothing but loopback.
    { DENO_NO_UPDATE_CHECK: '1' },
  );

/** Resolves to what `run` resolves to, or rejects after `childTimeoutMs` (running `stop` first). */
async function bounded<T>(what: string, run: Promise<T>, stop: () => unknown = () => undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void stop();
      reject(new Error(`${what} did not finish in ${childTimeoutMs} ms`));
    }, childTimeoutMs);
  });
  try {
    return await Promise.race([run, overrun]);
  } finally {
    clearTimeout(timer);
  }
}

describe('the client and the webhook verifier on every runtime', () => {
  it(
    `Node ${process.versions.node} (the Node running the tests)`,
    () =>
      checkProgram(process.execPath, [], {
        identity: { node: process.versions.node, deno: null, bun: null },
        clientRuntime: 'node',
        webhookEntries: bothBuilds,
      }),
    testTimeout,
  );

  it('Node 22 (npm package node@22)', npmNode('node22', 22), testTimeout);

  it('Node 24 (npm package node@24)', npmNode('node24', 24), testTimeout);

  it(
    'Deno 2 (npm package deno) with --allow-net=127.0.0.1 --allow-read --allow-env, @ocs/sdk from node_modules',
    () => checkDeno(['--allow-net=127.0.0.1', '--allow-read', '--allow-env']),
    testTimeout,
  );

  it(
    'Deno 2 with --allow-net=127.0.0.1 alone: a client given its key and base URL reads no environment',
    () => checkDeno(['--allow-net=127.0.0.1']),
    testTimeout,
  );

  it(
    'Bun 1 (npm package bun)',
    () =>
      // --no-install: never fetch a package, resolve from node_modules only.
      checkProgram(
        requireRuntime('bun'),
        ['--no-install'],
        {
          identity: { bun: expect.stringMatching(/^1\./), deno: null },
          clientRuntime: 'bun',
          webhookEntries: bothBuilds,
        },
        // Bun's opt-out of telemetry: the tests reach nothing but loopback.
        { DO_NOT_TRACK: '1' },
      ),
    testTimeout,
  );

  it(
    "Chromium (Debian's, through playwright-core), the page on another origin than the API",
    async () => {
      const executablePath = requireChromium();
      const bundle = await bundleChecks();
      expectBundledFromDist(bundle);
      // The page's own server: its origin differs from the API's (another port), so every
      // call is a cross-origin one, with preflights.
      const pages = await startServer((request, response) => {
        if (request.url === '/checks.js') {
          response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle.code);
        } else {
          response
            .writeHead(200, { 'content-type': 'text/html' })
            .end('<!doctype html><script src="/checks.js"></script>');
        }
      });
      const origin = new URL(pages.baseUrl).origin;
      const api = await startRuntimeApi(runtimeApiScript(origin));
      const input = runtimeCheckInput(api.server.baseUrl);
      const browser = await chromium.launch({ executablePath, args: chromiumArgs, timeout: childTimeoutMs });
      let report: string;
      try {
        const page = await browser.newPage();
        await page.goto(`${origin}/`);
        report = await bounded(
          'Chromium',
          page.evaluate(
            (value) =>
              (
                globalThis as unknown as { runRuntimeChecks(input: RuntimeCheckInput): Promise<string> }
              ).runRuntimeChecks(value),
            input,
          ),
          () => browser.close(),
        );
      } finally {
        await browser.close();
      }
      const { lines, noise } = parseLines(report);
      expect(noise).toBe('');
      expectRuntimeChecks(lines, api, input, {
        identity: { userAgent: expect.stringMatching(/Chrome\/\d+/), process: 'undefined' },
        clientRuntime: 'web',
        webhookEntries: { resolved: undefined },
        origin,
      });
    },
    testTimeout,
  );

  it(
    'edge-runtime (the EdgeVM of Next.js middleware and Vercel edge functions), bundled as Next.js bundles for it',
    async () => {
      const bundle = await bundleChecks(['edge-light', 'worker']);
      expectBundledFromDist(bundle);
      const api = await startRuntimeApi(runtimeApiScript());
      const input = runtimeCheckInput(api.server.baseUrl);
      const runtime = new EdgeRuntime({ initialCode: bundle.code });
      const report = await bounded(
        'edge-runtime',
        runtime.evaluate<Promise<string>>(`runRuntimeChecks(${JSON.stringify(input)})`),
      );
      const { lines, noise } = parseLines(report);
      expect(noise).toBe('');
      expectRuntimeChecks(lines, api, input, {
        identity: { edgeRuntime: 'edge-runtime', process: 'undefined' },
        clientRuntime: 'web',
        webhookEntries: { resolved: undefined },
      });
    },
    testTimeout,
  );
});

/**
 * A bundle made from the package's built entries, with the Web Crypto verifier and not the
 * Node one, and nothing of Node's (a Node built-in left in an IIFE shows as a require call).
 */
function expectBundledFromDist({ code, inputs }: ChecksBundle) {
  expect(inputs).toEqual(expect.arrayContaining(['dist/index.js', 'dist/webhooks/web.js', 'test/runtimes/checks.js']));
  expect(inputs).not.toContain('dist/webhooks/node.js');
  expect(inputs.filter((path) => path.startsWith('src/'))).toEqual([]);
  expect(code).not.toMatch(/\brequire\(["']|__require\b/);
}
