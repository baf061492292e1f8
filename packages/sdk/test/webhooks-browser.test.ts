/**
 * The Web Crypto entry in a real browser: Debian's Chromium, driven by playwright-core. The
 * page is served from 127.0.0.1 (a secure context, so `crypto.subtle` exists) and runs the
 * same known-answer vectors as Node, plus verifyAndParse of signed Requests.
 *
 * CI installs Chromium (`apt-get install chromium`); without it this test fails, on purpose,
 * with one line saying what to install: a browser test that skips itself would prove nothing.
 * `CHROMIUM_PATH` overrides the path (scripts/test-support/chromium.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, requireChromium } from '../../../scripts/test-support/chromium.ts';
import { closeServer } from '../../../scripts/test-support/close-server.ts';
import type { WebCheck, WebChecksInput } from './support/web-checks.ts';
import { bundleWebChecks, expectedCheckCount, webChecksInput } from './support/web-checks-harness.ts';

describe('webhooks in Chromium', () => {
  let browser: Browser;
  let server: Server | undefined;
  let pageUrl: string;

  beforeAll(async () => {
    const executablePath = requireChromium();
    const script = await bundleWebChecks();
    server = createServer((request, response) => {
      if (request.url === '/checks.js') {
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      } else {
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><script src="/checks.js"></script>');
      }
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`;
    browser = await chromium.launch({ executablePath, args: chromiumArgs });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
  });

  it('passes the known-answer vectors and parses signed Requests', async () => {
    const page = await browser.newPage();
    await page.goto(pageUrl);
    const environment = await page.evaluate(() => ({
      secure: window.isSecureContext,
      subtle: typeof crypto.subtle?.sign,
      node: typeof (globalThis as { process?: unknown }).process,
      userAgent: navigator.userAgent,
    }));
    expect(environment).toMatchObject({ secure: true, subtle: 'function', node: 'undefined' });
    expect(environment.userAgent).toMatch(/Chrome\//);

    const input = webChecksInput();
    const json = await page.evaluate(
      (value) =>
        (globalThis as unknown as { runWebChecks(input: WebChecksInput): Promise<string> }).runWebChecks(value),
      input,
    );
    const checks = JSON.parse(json) as WebCheck[];
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks).toHaveLength(expectedCheckCount(input));
    await page.close();
  }, 60_000);
});
