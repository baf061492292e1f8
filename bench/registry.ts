/**
 * Every bench `npm run bench` knows: its name, the file that runs it (a child process of the
 * runner, one per bench), the workspace it belongs to, what it needs built, and whether it
 * needs DATABASE_URL (skipped with a line saying so when that is not set).
 */

export const workspaces = {
  '@ocs/sdk': 'packages/sdk',
  '@ocs/server': 'packages/server',
  '@ocs/mock': 'packages/mock',
} as const;

export type Workspace = keyof typeof workspaces;

/** Files of each workspace's build that the benches load (checked before each bench). */
export const builtFiles: Record<Workspace, string[]> = {
  '@ocs/sdk': ['dist/index.js', 'dist/webhooks/node.js'],
  '@ocs/server': ['dist/node/bin.js'],
  '@ocs/mock': ['dist/node/index.js', 'dist/server/cli.cjs'],
};

export interface BenchEntry {
  name: string;
  workspace: Workspace;
  /** From the repository's root. */
  file: string;
  args?: string[];
  /** Node options before the file (--expose-gc ...). */
  nodeArgs?: string[];
  /** Workspaces to build first (their dist is what the bench loads), in build order. */
  build: Workspace[];
  needsDatabase: boolean;
  /** The runner stops the bench (by its PID) after this long. */
  timeoutSeconds: number;
  summary: string;
}

export const benches: BenchEntry[] = [
  {
    name: 'sdk-client',
    workspace: '@ocs/sdk',
    file: 'packages/sdk/bench/client.bench.ts',
    build: ['@ocs/sdk'],
    needsDatabase: false,
    timeoutSeconds: 300,
    summary:
      'getCampaign on the built SDK vs raw fetch with headers, deadline and json(), loopback node:http; time ratio <= 1.05',
  },
  {
    name: 'sdk-webhooks',
    workspace: '@ocs/sdk',
    file: 'packages/sdk/bench/webhooks.bench.ts',
    build: [],
    needsDatabase: false,
    timeoutSeconds: 300,
    summary: 'verifySignature (node) vs octokit verify and vs raw node:crypto HMAC, 4 KB body; >= 1.00 of each',
  },
  {
    name: 'server-get-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/server.bench.ts',
    args: ['postgres'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary: 'authenticated GET /v1/campaigns/{id}, 32 connections vs the pg pool PK select at 32 in flight; >= 0.7',
  },
  {
    name: 'server-get-pglite',
    workspace: '@ocs/server',
    file: 'packages/server/bench/server.bench.ts',
    args: ['pglite'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: 'authenticated GET /v1/campaigns/{id} on PGlite vs PGlite PK select in one process; >= 0.75',
  },
  {
    name: 'request-log-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/request-log.bench.ts',
    args: ['postgres'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary: 'the request log: GET /v1/campaigns/{id} with LOG_LEVEL=info vs silent, PostgreSQL; >= 0.95',
  },
  {
    name: 'request-log-pglite',
    workspace: '@ocs/server',
    file: 'packages/server/bench/request-log.bench.ts',
    args: ['pglite'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: 'the same on PGlite; >= 0.95',
  },
  {
    name: 'leads-create-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/leads-create.bench.ts',
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary: 'POST /v1/leads at 16 in flight vs the pg pool single-row insert at 16 in flight; >= 0.5',
  },
  {
    name: 'leads-import-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/leads-import.bench.ts',
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 900,
    summary: '100,000 leads through the batch form of POST /v1/leads vs the pg pool multi-row insert; >= 0.5',
  },
  {
    name: 'leads-list-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/leads-list.bench.ts',
    args: ['postgres'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary:
      'GET /v1/leads?campaign_id= page vs unfiltered page, 100,000 leads, offsets 0/50k/99.9k, no ANALYZE; <= 3x',
  },
  {
    name: 'leads-list-pglite',
    workspace: '@ocs/server',
    file: 'packages/server/bench/leads-list.bench.ts',
    args: ['pglite'],
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: 'the same on PGlite; <= 3x',
  },
  {
    name: 'engine-round-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/engine-round.bench.ts',
    build: [],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary: 'Engine.runDue over 20,000 leads waiting out a delay vs over 200, sender with budget, no ANALYZE; <= 2x',
  },
  {
    name: 'deliveries-postgres',
    workspace: '@ocs/server',
    file: 'packages/server/bench/delivery.bench.ts',
    args: ['postgres'],
    nodeArgs: ['--expose-gc'],
    build: ['@ocs/sdk'],
    needsDatabase: true,
    timeoutSeconds: 900,
    summary: 'signed deliveries through the worker on PostgreSQL vs the transport alone; >= 0.3, heap flat',
  },
  {
    name: 'deliveries-memory',
    workspace: '@ocs/server',
    file: 'packages/server/bench/delivery.bench.ts',
    args: ['memory'],
    nodeArgs: ['--expose-gc'],
    build: ['@ocs/sdk'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: 'the same on the memory store (for information)',
  },
  {
    name: 'server-start',
    workspace: '@ocs/server',
    file: 'packages/server/bench/start.bench.ts',
    build: ['@ocs/sdk', '@ocs/server'],
    needsDatabase: true,
    timeoutSeconds: 600,
    summary: 'ocs-server on PGlite vs PostgreSQL: spawn to first 200 (first, later start) <= 2x / 1.5x; idle RSS <= 2x',
  },
  {
    name: 'mock-start',
    workspace: '@ocs/mock',
    file: 'packages/mock/bench/start.bench.ts',
    build: ['@ocs/sdk', '@ocs/mock'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: 'createOcsMock to first answer <= 0.03x Prism start; standalone mock spawn to first 200 >= 10x faster',
  },
  {
    name: 'mock-throughput',
    workspace: '@ocs/mock',
    file: 'packages/mock/bench/throughput.bench.ts',
    build: ['@ocs/sdk', '@ocs/mock'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary: "standalone mock vs Prism requests per second, 32 connections; >= 5x (the mock's own target)",
  },
  {
    name: 'mock-reset',
    workspace: '@ocs/mock',
    file: 'packages/mock/bench/reset.bench.ts',
    build: ['@ocs/sdk', '@ocs/mock'],
    needsDatabase: false,
    timeoutSeconds: 300,
    summary: "reset() after 3 writes, p99 of 1,000 resets <= 5 ms (the mock's own target)",
  },
  {
    name: 'mock-journal',
    workspace: '@ocs/mock',
    file: 'packages/mock/bench/journal.bench.ts',
    build: ['@ocs/sdk', '@ocs/mock'],
    needsDatabase: false,
    timeoutSeconds: 600,
    summary:
      "the request journal on vs off, in process and on ocs-mock; >= 0.8x the requests per second (the mock's own target)",
  },
];
