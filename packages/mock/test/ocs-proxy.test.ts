/**
 * `ocs-mock proxy` as a real process (the built bin): in front of the reference server it
 * passes answers through unchanged and reports only what breaks the document (here, a
 * request the test makes wrong on purpose); in front of the reference server with faults
 * injected (an undocumented status, a missing X-Request-ID, a body that breaks its schema),
 * and of a tiny upstream that breaks the contract, it reports each, naming the operation,
 * and the summary at Ctrl-C counts them by operation, what is outside /v1 apart. Answers
 * are passed through as bytes (a binary body arrives unchanged); `--quiet` prints the
 * violations and the summary only.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createCampaign, createClient, getCampaign, listCampaigns, OcsBadRequestError } from '@ocs/sdk';
import { createApp, createMemoryStore, handlers, seedDemoOrganization } from '@ocs/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ocsMockBin,
  type LocalServer,
  requireBuilds,
  run,
  startReferenceServer,
  stopAll,
  watch,
  type Watched,
} from './support/local-processes.ts';

let server: LocalServer;
/** A deployment that breaks the contract (stateless: the tests share it). */
let upstream: { server: Server; url: string };

beforeAll(async () => {
  requireBuilds();
  server = await startReferenceServer([]);
  upstream = await brokenUpstream();
}, 120_000);

afterAll(async () => {
  stopAll();
  await server?.close();
  upstream?.server.closeAllConnections();
  await new Promise((resolve) => upstream?.server.close(resolve));
});

async function startProxy(target: string, extra: string[] = []): Promise<{ proxy: Watched; url: string }> {
  const proxy = watch(ocsMockBin, ['proxy', '--target', target, '--port', '0', ...extra]);
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

  it('catches faults injected into the reference server itself, by operation id', async () => {
    const faulty = await faultyReferenceServer();
    try {
      const { proxy, url } = await startProxy(faulty.url);
      const headers = { authorization: `Bearer ${faulty.apiKey}` };
      const teapot = await fetch(`${url}/auth/verify`, { headers });
      expect(teapot.status).toBe(418);
      await teapot.arrayBuffer();
      const list = await fetch(`${url}/campaigns`, { headers });
      expect(list.status).toBe(200);
      expect(list.headers.get('x-request-id')).toBeNull();
      await list.arrayBuffer();
      const client = createClient({ baseUrl: url, apiKey: faulty.apiKey, maxRetries: 0 });
      const { campaign_id: id = '' } = await createCampaign(client, { name: 'Faulty' });
      const got = await fetch(`${url}/campaigns/${id}`, { headers });
      expect(((await got.json()) as { campaign: { name: unknown } }).campaign.name).toBe(42);
      await proxy.waitFor(/VIOLATION getCampaign/);

      expect(violations(proxy)).toEqual([
        expect.stringMatching(
          /^VIOLATION verifyAuth response: status 418 is not documented \(documented: 200, .*\) {2}\[GET \/v1\/auth\/verify -> 418\]$/,
        ),
        'VIOLATION listCampaigns response: 200: required header X-Request-ID is missing  [GET /v1/campaigns -> 200]',
        `VIOLATION getCampaign response: 200: body /campaign/name must be string  [GET /v1/campaigns/${id} -> 200]`,
      ]);
      expect(proxy.stdout()).toMatch(/^createCampaign {2}POST \/v1\/campaigns -> 201 {2}ok$/m);
      expect(await proxy.stop('SIGINT')).toBe(0);
      const summary = proxy.stdout().slice(proxy.stdout().indexOf('Summary:'));
      expect(summary.split('\n').slice(0, 4).sort()).toEqual([
        '  getCampaign: 1 violation(s) in 1 request(s)',
        '  listCampaigns: 1 violation(s) in 1 request(s)',
        '  verifyAuth: 1 violation(s) in 1 request(s)',
        'Summary: 4 requests, 3 violations',
      ]);
    } finally {
      await faulty.close();
    }
  }, 60_000);

  it('with --quiet prints only the violations and the summary; passes bytes through; counts what is outside /v1 apart', async () => {
    const { proxy, url } = await startProxy(upstream.url, ['--quiet']);
    const origin = new URL(url).origin;
    const image = await fetch(`${origin}/assets/logo.png`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(binaryBody)).toBe(true);
    expect((await fetch(`${url}/no-such-thing`)).status).toBe(404);
    expect(await (await fetch(`${url}/campaigns`)).json()).toEqual(wrongList);
    await proxy.waitFor(/VIOLATION listCampaigns response: 200: body/);
    expect(await proxy.stop('SIGINT')).toBe(0);

    const [banner, ...rest] = proxy.stdout().trimEnd().split('\n');
    expect(banner).toMatch(/^OCS contract proxy at /);
    expect(rest).toEqual([
      'VIOLATION (no operation) request: no operation of the document is GET /v1/no-such-thing  [GET /v1/no-such-thing -> 404]',
      'VIOLATION listCampaigns response: 200: required header X-Request-ID is missing  [GET /v1/campaigns -> 200]',
      'VIOLATION listCampaigns response: 200: body /campaigns must be array  [GET /v1/campaigns -> 200]',
      'Summary: 3 requests, 3 violations, 1 outside /v1 passed through unchecked',
      '  listCampaigns: 2 violation(s) in 1 request(s)',
      '  (no operation): 1 violation(s) in 1 request(s)',
    ]);
  }, 60_000);

  it('says what it passed through unchecked, apart from unknown /v1 paths', async () => {
    const { proxy, url } = await startProxy(upstream.url);
    await (await fetch(`${new URL(url).origin}/assets/logo.png`)).arrayBuffer();
    await proxy.waitFor(/logo\.png/);
    expect(proxy.stdout()).toMatch(/^\(outside \/v1\) {2}GET \/assets\/logo\.png -> 200 {2}passed through unchecked$/m);
    expect(await proxy.stop('SIGINT')).toBe(0);
    expect(proxy.stdout()).toMatch(/^Summary: 1 requests, 0 violations, 1 outside \/v1 passed through unchecked$/m);
  }, 60_000);

  it('catches an upstream that breaks the contract, by operation id', async () => {
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

  it('keeps the path prefix of a target under one, with or without /v1', async () => {
    const paths: string[] = [];
    const prefixed = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"success":false}');
    });
    await new Promise<void>((resolve) => prefixed.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(prefixed.address() as AddressInfo).port}`;
    try {
      for (const target of [`${origin}/api/v1`, `${origin}/api`, `${origin}/api/`]) {
        const { proxy, url } = await startProxy(target);
        try {
          expect(proxy.stdout()).toContain(`-> ${origin}/api (Ctrl-C`);
          await (await fetch(`${url}/campaigns?limit=1`)).arrayBuffer();
          await (await fetch(`${new URL(url).origin}/openapi.json`)).arrayBuffer();
        } finally {
          await proxy.stop('SIGINT');
        }
      }
      expect(paths).toEqual(Array(3).fill(['/api/v1/campaigns?limit=1', '/api/openapi.json']).flat());
    } finally {
      prefixed.closeAllConnections();
      await new Promise((resolve) => prefixed.close(resolve));
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
      [['proxy', '--target', 'http://127.0.0.1:9', '--target', 'http://127.0.0.1:8'], /--target must be given once/],
      // ocs-mock's own checks of --host and --port: an empty host listened on every interface,
      // and a host no URL holds failed only when listening, as a failure (exit code 1).
      [['proxy', '--target', 'http://127.0.0.1:1', '--host=', '--port', '0'], /--host needs an address/],
      [
        ['proxy', '--target', 'http://127.0.0.1:1', '--host', 'bad host!', '--port', '0'],
        /--host must be an interface's address or name .*got 'bad host!'/,
      ],
      [
        ['proxy', '--target', 'http://127.0.0.1:1', '--host', 'a'.repeat(300), '--port', '0'],
        /--host must be an interface's address or name/,
      ],
      [['proxy', '--target', 'http://127.0.0.1:1', '--port', '70000'], /--port must be an integer from 0 to 65535/],
      // Dropped silently, as was the target's path: the client's own Authorization is what is sent.
      [
        ['proxy', '--target', 'http://user:pw@127.0.0.1:1/api/v1', '--port', '0'],
        /--target must carry no user or password/,
      ],
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

/** Every byte value, twice: not UTF-8, so a proxy that passes text instead of bytes changes it. */
const binaryBody = Buffer.from([
  ...Array.from({ length: 256 }, (_, i) => i),
  ...Array.from({ length: 256 }, (_, i) => 255 - i),
]);

/**
 * The reference server's own application (memory store, seeded) behind a real HTTP listener,
 * with faults injected: verifyAuth answers 418, listCampaigns drops X-Request-ID, getCampaign
 * answers a campaign whose name is a number.
 */
async function faultyReferenceServer(): Promise<{ url: string; apiKey: string; close(): Promise<void> }> {
  const store = createMemoryStore();
  const { apiKey } = await seedDemoOrganization(store);
  const realGetCampaign = handlers.getCampaign;
  if (!realGetCampaign) throw new Error('the server has no getCampaign handler');
  const app = createApp({
    store,
    handlers: {
      ...handlers,
      verifyAuth: (async () => ({ status: 418, body: { teapot: true } })) as never,
      getCampaign: (async (request: never, services: never) => {
        const answer = (await realGetCampaign(request, services)) as {
          status: number;
          body: { campaign: object };
        };
        return { ...answer, body: { ...answer.body, campaign: { ...answer.body.campaign, name: 42 } } };
      }) as never,
    },
  });
  const listener = createServer(
    getRequestListener(async (request: Request) => {
      const response = await app.fetch(request);
      if (request.method !== 'GET' || new URL(request.url).pathname !== '/v1/campaigns') return response;
      const stripped = new Response(response.body, response);
      stripped.headers.delete('X-Request-ID');
      return stripped;
    }),
  );
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`,
    apiKey,
    async close() {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    },
  };
}

/** A deployment that breaks the document: verifyAuth answers 418, listCampaigns a body of the wrong shape. */
async function brokenUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    if (request.url === '/assets/logo.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end(binaryBody);
    } else if (request.url === '/v1/auth/verify') {
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
