/**
 * `ocs-server`: run and administer the reference server. Every command accepts `--json` for
 * machine-readable output, and `--data-dir` / `--database-url` to choose the store.
 *
 *   ocs-server serve [--port 4010] [--host 127.0.0.1] [--no-sandbox] [--allow-insecure-webhooks]
 *   ocs-server migrate
 *   ocs-server org create --name <name> [--owner-email <email>] [--owner-name <name>]
 *   ocs-server org list
 *   ocs-server org deactivate <organization-id>
 *   ocs-server key create --org <organization-id> [--scopes a:read,b:write] [--expires-at <iso>] [--name <name>]
 *   ocs-server key revoke <key-id>
 *   ocs-server seed
 *   ocs-server deliveries list --campaign <campaign-id> [--limit 20]
 */
import { parseArgs } from 'node:util';
import { allScopes } from '../domain/api-keys.ts';
import { seedDemoOrganization } from '../seed/demo.ts';
import { createApiKey, createOrganization } from '../seed/organizations.ts';
import type { Scope } from '../store/records.ts';
import type { DeliveryWithAttempts } from '../store/types.ts';
import { migrate } from '../store/sql/index.ts';
import { ensureDemoOrganization } from './first-start.ts';
import { openStore } from './open-store.ts';
import { describeLocation, storeLocation } from './options.ts';
import { serve } from './serve.ts';

const usage = `Usage: ocs-server <command> [options]

Commands:
  serve                 serve the API (default port 4010 on 127.0.0.1)
  migrate               apply pending database migrations
  org create            create an organization (--name, --owner-email, --owner-name)
  org list              list organizations
  org deactivate <id>   deactivate an organization (its keys answer 403 ORGANIZATION_DEACTIVATED)
  key create            create an API key (--org, --scopes, --expires-at, --name); shown once
  key revoke <id>       revoke an API key (it answers 401 UNAUTHORIZED from then on)
  seed                  create a demo organization with accounts and a pipeline
  deliveries list       a campaign's prospect_response deliveries and every attempt
                        (--campaign, --limit; oldest first), for the operator

Options:
  --data-dir <dir>      PGlite data directory (default .data/pglite)
  --database-url <url>  use a PostgreSQL server instead (or DATABASE_URL)
  --json                print machine-readable JSON
  --port, --host        serve: where to listen (or PORT, HOST)
  --no-sandbox          serve: turn sandbox mode off
  --allow-insecure-webhooks  serve: allow http:// and loopback webhook receivers (development)
  --rate-limit-per-endpoint <n>, --rate-limit-total <n>
                        serve: per-key limits per minute (default 100 and 600, as section 8 says)
`;

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'no-sandbox': { type: 'boolean', default: false },
      'allow-insecure-webhooks': { type: 'boolean', default: false },
      'rate-limit-per-endpoint': { type: 'string' },
      'rate-limit-total': { type: 'string' },
      name: { type: 'string' },
      'owner-email': { type: 'string' },
      'owner-name': { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
      campaign: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, sub, argument] = positionals;
  const out = (human: string, json: unknown) =>
    process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${human}\n`);
  if (values.help || !command) {
    process.stdout.write(usage);
    return command ? 0 : 1;
  }
  const location = storeLocation(values);

  if (command === 'serve') {
    const store = await openStore(location);
    await ensureDemoOrganization(store, (text) => process.stderr.write(`${text}\n`));
    const running = await serve({
      store,
      port: Number(values.port ?? process.env.PORT ?? 4010),
      host: values.host ?? process.env.HOST ?? '127.0.0.1',
      config: { sandbox: !values['no-sandbox'], allowInsecureWebhooks: values['allow-insecure-webhooks'] },
      rateLimits: {
        ...(values['rate-limit-per-endpoint'] ? { perEndpoint: Number(values['rate-limit-per-endpoint']) } : {}),
        ...(values['rate-limit-total'] ? { total: Number(values['rate-limit-total']) } : {}),
      },
    });
    process.stderr.write(`OCS reference server on ${running.url}/v1 (${describeLocation(location)})\n`);
    await new Promise<void>((resolve) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
    });
    await running.close();
    await store.close();
    return 0;
  }

  const store = await openStore(location, { skipMigrations: command === 'migrate' });
  try {
    switch (`${command} ${sub ?? ''}`.trim()) {
      case 'migrate': {
        const applied = await migrate(store.client);
        out(applied.length ? `Applied migrations ${applied.join(', ')}.` : 'Nothing to apply.', { applied });
        return 0;
      }
      case 'seed': {
        const demo = await seedDemoOrganization(store);
        out(`Demo organization ${demo.organizationId}\nAPI key (shown once): ${demo.apiKey}`, demo);
        return 0;
      }
      case 'org create': {
        if (!values.name) throw new UsageError('org create needs --name');
        const organization = await createOrganization(store, {
          name: values.name,
          members: values['owner-email']
            ? [{ email: values['owner-email'], name: values['owner-name'] ?? values['owner-email'], role: 'owner' }]
            : [],
        });
        out(`Created organization ${organization.id} (${organization.name}).`, organization);
        return 0;
      }
      case 'org list': {
        const organizations = await store.organizations.list();
        out(
          organizations.map((o) => `${o.id}  ${o.is_active ? 'active     ' : 'deactivated'}  ${o.name}`).join('\n'),
          organizations,
        );
        return 0;
      }
      case 'org deactivate': {
        if (!argument) throw new UsageError('org deactivate needs an organization ID');
        const organization = await store.organizations.update(argument, { is_active: false });
        if (!organization) throw new UsageError(`No organization ${argument}`);
        out(`Deactivated organization ${organization.id}.`, organization);
        return 0;
      }
      case 'key create': {
        if (!values.org) throw new UsageError('key create needs --org <organization-id>');
        if (!(await store.organizations.get(values.org))) throw new UsageError(`No organization ${values.org}`);
        const scopes = values.scopes ? parseScopes(values.scopes) : allScopes;
        const expiresAt = values['expires-at'] ? new Date(values['expires-at']) : null;
        if (expiresAt && Number.isNaN(expiresAt.getTime()))
          throw new UsageError('--expires-at must be an ISO 8601 date-time');
        const { key, record } = await createApiKey(store, {
          organizationId: values.org,
          name: values.name,
          scopes,
          expiresAt: expiresAt?.toISOString() ?? null,
        });
        out(`API key ${record.id} (shown once, only a hash is stored):\n${key}`, {
          id: record.id,
          key,
          prefix: record.prefix,
          scopes: record.scopes,
          expires_at: record.expires_at,
        });
        return 0;
      }
      case 'key revoke': {
        if (!argument) throw new UsageError('key revoke needs a key ID');
        const record = await store.apiKeys.revoke(argument, new Date().toISOString());
        if (!record) throw new UsageError(`No API key ${argument}`);
        out(`Revoked API key ${record.id}.`, { id: record.id, revoked_at: record.revoked_at });
        return 0;
      }
      case 'deliveries list': {
        if (!values.campaign) throw new UsageError('deliveries list needs --campaign <campaign-id>');
        const limit = Number(values.limit ?? 20);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be 1 to 500');
        const page = await store.deliveries.listForCampaign(values.campaign, { limit, offset: 0 });
        out(page.items.map(describeDelivery).join('\n') || 'No deliveries.', page);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
    }
  } finally {
    await store.close();
  }
}

class UsageError extends Error {}

/** One delivery and its attempts, a line each, for a terminal. */
function describeDelivery(delivery: DeliveryWithAttempts): string {
  const head = `${delivery.id}  ${delivery.status.padEnd(9)}  attempts ${delivery.attempts_made}  key ${delivery.idempotency_key.slice(0, 12)}…  created ${delivery.created_at}${delivery.next_attempt_at ? `  next ${delivery.next_attempt_at}` : ''}${delivery.last_error ? `  (${delivery.last_error})` : ''}`;
  const attempts = delivery.attempts.map(
    (a) =>
      `    #${a.attempt} ${a.started_at} ${a.url} → ${a.ok ? 'ok' : 'failed'} ${a.status ?? '-'} in ${Math.round(a.duration_ms)} ms${a.error ? ` (${a.error})` : ''}`,
  );
  return [head, ...attempts].join('\n');
}

function parseScopes(list: string): Scope[] {
  const scopes = list.split(',').map((scope) => scope.trim());
  const unknown = scopes.filter((scope) => !(allScopes as readonly string[]).includes(scope));
  if (unknown.length) throw new UsageError(`Unknown scopes: ${unknown.join(', ')}. Known: ${allScopes.join(', ')}`);
  return scopes as Scope[];
}

export async function run(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${usage}`);
      process.exitCode = 2;
      return;
    }
    throw error;
  }
}
