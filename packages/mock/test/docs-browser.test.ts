/**
 * The standalone mock's `/docs` in real Chromium, with every request off this machine
 * blocked: Redoc (installed here through @ocs/server, the optional peer) renders every
 * operation of the document the mock serves and the `prospect_response` webhook, and no
 * request tries to leave the machine. The same checks as the reference server's
 * (packages/server/test/docs/docs-browser.test.ts); the screenshot goes to
 * packages/mock/test-results/ (git-ignored).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { shownExtensions } from '@ocs/server';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { expectedReference, expectOfflineReference } from '../../../scripts/test-support/reference-page.ts';
import { type MockServer, startMockServer } from '../src/node/index.ts';

const results = join(import.meta.dirname, '..', 'test-results');

let browser: Browser;
let server: MockServer | undefined;

beforeAll(async () => {
  const executablePath = requireChromium();
  mkdirSync(results, { recursive: true });
  server = await startMockServer({ port: 0 });
  browser = await chromium.launch({ executablePath, args: chromiumArgs });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('renders every operation and the prospect_response webhook at /docs, with no request leaving the machine', async () => {
  const origin = new URL(server?.url ?? '').origin;
  const expected = await expectedReference(origin, shownExtensions);
  await expectOfflineReference(browser, `${origin}/docs`, expected, (page) =>
    page.screenshot({ path: join(results, 'docs-mock.png') }),
  );
}, 120_000);
