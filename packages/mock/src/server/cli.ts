/**
 * `npx ocs-mock [--port 4010] [--host 127.0.0.1] [--seed N]`: the standalone stateful mock.
 * Prints the base URL and the API key, then serves until SIGINT or SIGTERM.
 */
import { parseArgs } from 'node:util';
import { startMockServer } from './start-mock-server.ts';

const usage = `Usage: ocs-mock [options]

The stateful mock of the Outreach Campaign Service API (the reference server's application,
seeded, in memory) on HTTP.

Options:
  --port <n>                     port (default 4010; 0 picks a free one)
  --host <address>               interface (default 127.0.0.1)
  --seed <n>                     seed of the generated data (default 1)
  --rate-limit-per-endpoint <n>  requests per minute per endpoint (default 100)
  --rate-limit-total <n>         requests per minute in total (default 600)
  --allow-insecure-webhooks      accept http:// and loopback webhook URLs
  --json                         print the start-up line as JSON
  -h, --help                     this help

Control routes (outside /v1): POST /__ocs-mock/reset, GET /__ocs-mock/data,
POST /__ocs-mock/scenarios (see the @ocs/mock README).`;

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) {
    console.error(`ocs-mock: --${name} must be a whole number, got "${value}".\n\n${usage}`);
    process.exit(2);
  }
  return parsed;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    'rate-limit-per-endpoint': { type: 'string' },
    'rate-limit-total': { type: 'string' },
    'allow-insecure-webhooks': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  console.log(usage);
  process.exit(0);
}

const server = await startMockServer({
  port: integer('port', values.port) ?? 4010,
  host: values.host ?? '127.0.0.1',
  seed: integer('seed', values.seed) ?? 1,
  rateLimits: {
    perEndpoint: integer('rate-limit-per-endpoint', values['rate-limit-per-endpoint']),
    total: integer('rate-limit-total', values['rate-limit-total']),
  },
  allowInsecureWebhooks: values['allow-insecure-webhooks'],
});

if (values.json) {
  console.log(JSON.stringify({ url: server.url, apiKey: server.apiKey, organizationId: server.data.organization.id }));
} else {
  console.log(`OCS mock (stateful, in memory) at ${server.url}
API key: ${server.apiKey}
Try: curl -H 'Authorization: Bearer ${server.apiKey}' ${server.url}/campaigns
Reset: curl -X POST ${server.url.replace(/\/v1$/, '')}/__ocs-mock/reset`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0));
  });
}
