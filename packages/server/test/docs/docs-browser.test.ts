/**
 * The API reference in real Chromium, with every request off this machine blocked: the
 * reference server's `/docs` and the static page of `npm run docs` (opened from disk) render
 * every operation of the served document and the `prospect_response` webhook, with the
 * document's `x-required-scope`, and no request ever tries to leave the machine.
 * Screenshots go to packages/server/test-results/ (git-ignored). The standalone mock's
 * `/docs` has the same test in packages/mock/test/docs-browser.test.ts.
 *
 * Debian's Chromium through playwright-core (one line saying what to install when it is
 * missing; `CHROMIUM_PATH` overrides the path).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../../scripts/test-support/chromium.ts';
import {
  type ExpectedReference,
  expectedReference,
  expectOfflineReference,
} from '../../../../scripts/test-support/reference-page.ts';
import { shownExtensions } from '../../src/docs/reference-page.ts';
import { staticReferencePage } from '../../src/node/docs-renderer.ts';
import { type RunningServer, serve } from '../../src/node/serve.ts';
import { createMemoryStore } from '../../src/store/memory/index.ts';

const results = join(import.meta.dirname, '..', '..', 'test-results');

let browser: Browser;
let server: RunningServer;
let expected: ExpectedReference;

beforeAll(async () => {
  const executablePath = requireChromium();
  mkdirSync(results, { recursive: true });
  server = await serve({ store: createMemoryStore(), port: 0, host: '127.0.0.1', quiet: true });
  // The document the page renders, as the server serves it.
  expected = await expectedReference(server.url, shownExtensions);
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('renders every operation and the prospect_response webhook at /docs, with no request leaving the machine', async () => {
  await expectOfflineReference(browser, `${server.url}/docs`, expected, async (page) => {
    await page.screenshot({ path: join(results, 'docs-reference.png') });
    await page
      .locator(`[data-section-id="operation/${expected.webhookOperationId}"]`)
      .evaluate((section) => section.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(results, 'docs-reference-webhook.png') });
  });
}, 120_000);

it('renders the same from the static page of npm run docs, opened from disk', async () => {
  const file = join(results, 'docs-static', 'index.html');
  mkdirSync(join(results, 'docs-static'), { recursive: true });
  writeFileSync(file, await staticReferencePage());
  await expectOfflineReference(browser, pathToFileURL(file).href, expected, (page) =>
    page.screenshot({ path: join(results, 'docs-static.png') }),
  );
}, 120_000);
