/**
 * `ocs-mock proxy` as a real process (the built bin): in front of the reference server it
 * passes answers through unchanged and reports only what breaks the document (here, a
 * request the test makes wrong on purpose); in front of a tiny upstream that breaks the
 * contract (an undocumented status, a body that does not match its schema, a path the
 * document does not have) it reports each, naming the operation, and the summary at Ctrl-C
 * counts them by operation.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCampaign, createClient, getCampaign, listCampaigns, OcsBadRequestError } from '@ocs/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ocsMockBin,
  type ReferenceServer,
  requireBuilds,
  run,
  startReferenceServer,
  stopAll,
  watch,
  type Watched,
} from './support/local-processes.ts';

let server: ReferenceServer;

beforeAll(async () => {
  requireBuilds();
  server = await startReferenceServer([]);
}, 120_000);

afterAll(async () => {
  stopAll();
  await server?.close();
});

async function startProxy(target: string): Promise<{ proxy: Watched; url: string }> {
  const proxy = watch(ocsMockBin, ['proxy', '--target', target, '--port', '0']);
  const [, url = ''] = await proxy.waitFor(/OCS contract proxy at (\S+\/v1) /);
  return { proxy, url };
}

const violations = (proxy: Watched) =>
  proxy
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('VIOLATION '));

describe('ocs-mock proxy', () => {
  it('passes the reference server through and reports only the request that breaks the document', async () => {
    const { proxy, url } = await startProxy(server.url);
    const client = createClient({ baseUrl: url, apiKey: server.apiKey, maxRetries: 0 });
    const created = await createCampaign(client, { name: 'Through the proxy' });
    const id = created.campaign_id ?? '';
    expect((await getCampaign(client, { campaign_id: id })).campaign.name).toBe('Through the proxy');
    expect((await listCampaigns(client, {})).campaigns.map((c) => c.id)).toContain(id);
    // The same answer as without the proxy: the API's own error body and request id.
    const refused = await createCampaign(client, { name: 42 as unknown as string }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OcsBadRequestError);
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', requestId: expect.stringMatching(/^req_/) });

    await proxy.waitFor(/VIOLATION createCampaign/);
    expect(violations(proxy)).toEqual([
      'VIOLATION createCampaign request: Request validation failed: body.name must be string.  [POST /v1/campaigns -> 400]',
    ]);
    expect(proxy.stdout()).toMatch(/getCampaign {2}GET \/v1\/campaigns\/\S+ -> 200 {2}ok/);

    expect(await proxy.stop('SIGINT')).toBe(0);
    expect(proxy.stdout()).toContain(
      'Summary: 4 requests, 1 violations\n  createCampaign: 1 violation(s) in 2 request(s)\n',
    );
  }, 60_000);

  it('catches an upstream that breaks the contract, by operation id', async () => {
    const upstream = await brokenUpstream();
    try {
      const { proxy, url } = await startProxy(upstream.url);
      const headers = { authorization: `Bearer ${server.apiKey}` };
      expect((await fetch(`${url}/auth/verify`, { headers })).status).toBe(418);
      const list = await fetch(`${url}/campaigns`, { headers });
      expect(await list.json()).toEqual(wrongList); // given back as it came
      expect((await fetch(`${url}/no-such-thing`, { headers })).status).toBe(404);
      await proxy.waitFor(/no operation of the document is GET \/v1\/no-such-thing/);

      expect(violations(proxy)).toEqual([
        expect.stringMatching(
          /^VIOLATION verifyAuth response: status 418 is not documented \(documented: 200, .*\) {2}\[GET \/v1\/auth\/verify -> 418\]$/,
        ),
        // The document marks X-Request-ID required on every answer; this upstream sends none.
        'VIOLATION listCampaigns response: 200: required header X-Request-ID is missing  [GET /v1/campaigns -> 200]',
        'VIOLATION listCampaigns response: 200: body /campaigns must be array  [GET /v1/campaigns -> 200]',
        'VIOLATION (no operation) request: no operation of the document is GET /v1/no-such-thing  [GET /v1/no-such-thing -> 404]',
      ]);
      expect(await proxy.stop('SIGINT')).toBe(0);
      const summary = proxy.stdout().slice(proxy.stdout().indexOf('Summary:'));
      expect(summary).toMatch(/^Summary: 3 requests, 4 violations\n/);
      expect(summary).toContain('  verifyAuth: 1 violation(s) in 1 request(s)');
      expect(summary).toContain('  listCampaigns: 2 violation(s) in 1 request(s)');
      expect(summary).toContain('  (no operation): 1 violation(s) in 1 request(s)');
    } finally {
      await new Promise((resolve) => upstream.server.close(resolve));
    }
  }, 60_000);

  it('sends every request to the target host, whatever its path, and names a body that is not JSON', async () => {
    // Another host the request's path names (`//host/...`), which must never get it or its key.
    let reachedElsewhere = 0;
    const elsewhere = createServer((request, response) => {
      reachedElsewhere += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const other = `127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const { proxy, url } = await startProxy(server.url);
    try {
      const { port } = new URL(url);
      for (const path of [`//${other}/v1/campaigns`, `/.//${other}/v1/campaigns`, `/v1/..//${other}/v1/campaigns`]) {
        await rawGet(Number(port), path, server.apiKey);
      }
      expect(reachedElsewhere).toBe(0);
      await fetch(`${url}/leads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json' },
        body: '{bad',
      });
      await proxy.waitFor(/VIOLATION createLead request: the body is not JSON/);
    } finally {
      await proxy.stop('SIGINT');
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  }, 60_000);

  it('answers --help and --version with 0, and a mistake in one line with 2', async () => {
    expect(await run(ocsMockBin, ['proxy', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: ocs-mock proxy/),
    });
    expect(await run(ocsMockBin, ['proxy', '--version'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/),
    });
    for (const [args, message] of [
      [['proxy'], /proxy needs --target/],
      [['proxy', '--target', 'ftp://x'], /--target must be an http\(s\) URL/],
      [['proxy', '--target', 'http://127.0.0.1:1', '--port', 'x'], /--port must be an integer from 0 to 65535/],
      [['proxy', '--bogus'], /unknown option --bogus/],
    ] as const) {
      const { code, stderr } = await run(ocsMockBin, [...args]);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});

/** The list envelope with every field right but the list itself. */
const wrongList = {
  success: true,
  message: 'Campaigns retrieved',
  count: 0,
  total: 0,
  limit: 100,
  offset: 0,
  has_more: false,
  campaigns: 'none',
};

/** A deployment that breaks the document: verifyAuth answers 418, listCampaigns a body of the wrong shape. */
async function brokenUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/v1/auth/verify') {
      response.writeHead(418, { 'content-type': 'application/json' }).end('{"teapot":true}');
    } else if (request.url === '/v1/campaigns') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(wrongList));
    } else {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"success":false,"error":"NOT_FOUND","message":"no"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** A GET whose path is sent exactly as written (fetch would normalize `//` and `..`). */
function rawGet(port: number, path: string, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      { host: '127.0.0.1', port, path, headers: { Authorization: `Bearer ${apiKey}` } },
      (answer) => {
        answer.resume();
        answer.on('end', () => resolve(answer.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}
