/**
 * The operator's commands (`org`, `key`, `seed`, `deliveries`, `migrate`), one implementation
 * run by the CLI on a store it opened itself or, when a server holds the PGlite directory, by
 * that server on its own store at the CLI's request over the admin channel
 * (docs/decisions/0004-one-writer-per-data-dir.md). Commands are plain JSON, so they cross
 * the channel as they are, and are checked here whichever way they came.
 */
import { allScopes } from '../domain/api-keys.ts';
import { seedDemoOrganization, seededAgain } from '../seed/demo.ts';
import { createApiKey, createOrganization, reissueApiKey } from '../seed/organizations.ts';
import type { Scope } from '../store/records.ts';
import { migrate, type SqlStore } from '../store/sql/index.ts';
import type { DeliveryWithAttempts } from '../store/types.ts';
import { uuidForm } from '../openapi/formats.ts';
import { parseTimestamp } from '../domain/date-filter.ts';
import { unprintable } from '../domain/unprintable-text.ts';
import { emailProblem, isBlank, nameLimits, nameProblem } from './admin-names.ts';
import { echoed, escapedText, listedName, unicodeEscape } from './echoed-value.ts';

export type AdminCommand =
  | { command: 'migrate' }
  | { command: 'seed'; id?: string }
  | { command: 'org create'; name: string; ownerEmail?: string; ownerName?: string; id?: string }
  | { command: 'org list' }
  | { command: 'org deactivate'; organizationId: string }
  | { command: 'key create'; organizationId: string; scopes?: string[]; expiresAt?: string; name?: string; id?: string }
  | { command: 'key revoke'; keyId: string }
  | { command: 'deliveries list'; campaignId: string; limit: number };

/*
 * `id` of `seed`, `org create` and `key create`: the ID the CLI picks for the record (the
 * organization, or the key), once per run.
 * The CLI may send a command again when it got no answer (the server stopped after its
 * commit, before answering): a command whose record exists already answers with that record
 * (a key gets a new secret, the lost answer's never having been shown) instead of making a
 * second one.
 */

export const adminCommandNames: ReadonlyArray<AdminCommand['command']> = [
  'migrate',
  'seed',
  'org create',
  'org list',
  'org deactivate',
  'key create',
  'key revoke',
  'deliveries list',
];

/** What a command prints: text for people, the value for `--json`. */
export interface AdminOutput {
  text: string;
  json: unknown;
  /**
   * For the log line of a server that ran the command for the CLI: the record the command
   * made or answered with, and `reissued` when it gave an existing key a new secret (its
   * first answer was lost), which an operator must be able to find. Never a secret.
   */
  logged?: { record_id: string; reissued?: true };
}

/**
 * A mistake in the command (`usage`: exit code 2), a record that does not exist
 * (`not-found`: exit code 1), or a record whose state refuses the command (`state`: exit
 * code 1, as not-found: the command was right, the data says no). The message is one line
 * saying what is wrong and what to do.
 */
export type AdminErrorKind = 'usage' | 'not-found' | 'state';

export const adminErrorKinds: readonly AdminErrorKind[] = ['usage', 'not-found', 'state'];

export class AdminCommandError extends Error {
  constructor(
    message: string,
    readonly kind: AdminErrorKind,
  ) {
    super(message);
    this.name = 'AdminCommandError';
  }
}

export const deliveriesLimit = { min: 1, max: 500, default: 20 };

function requireId(value: string, what: string, flag: string): string {
  if (!uuidForm.test(value))
    throw new AdminCommandError(`${flag} must be ${what} (a UUID), got '${echoed(value)}'.`, 'usage');
  return value.toLowerCase();
}

/** The record ID a command carries (`id`), checked; none when it carries none. */
function recordId(id: string | undefined): { id?: string } {
  return id === undefined ? {} : { id: requireId(id, 'a record ID', "the command's id") };
}

/**
 * A stored name (or other stored text) for a line of text output, its `unprintable` characters
 * escaped (`\n`, `\u202e`): names stored before `org create` refused them, or written into the
 * database directly, still print as one line that shows what it holds.
 */
const shown = escapedText;

/**
 * An organization's stored name for a line of text output: escaped as `shown`, and cut after
 * the 500 characters `org create` stores now (`listedName`), with a mark: a name stored before
 * that bound (100,000 characters) was printed whole by every `org list`. `--json` keeps it whole.
 */
const shownName = (name: string) => listedName(name, nameLimits.organization);

/**
 * `--json`: the JSON text, with the `unprintable` characters `JSON.stringify` writes as they are
 * (DEL, C1, the separators and the bidi controls; it escapes only C0) written as `\u` escapes.
 * They can only be inside strings, which parse back to the very same values: the data stays
 * exact for what reads it, and the line is safe on a terminal.
 */
export function adminJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(unprintable, unicodeEscape);
}

/** Refuses a name `nameProblem` finds wrong (admin-names.ts): unprintable, not UTF-8, or too long. */
function checkName(value: string, flag: string, max: number): void {
  const problem = nameProblem(value, flag, max);
  if (problem !== null) throw new AdminCommandError(problem, 'usage');
}

/**
 * Checks what can be checked without the store (IDs, scopes, dates, numbers) and returns the
 * command in canonical form; the CLI calls it before opening anything, `runAdminCommand` again.
 */
export function checkAdminCommand(command: AdminCommand): AdminCommand {
  switch (command.command) {
    case 'org create': {
      if (isBlank(command.name)) throw new AdminCommandError('org create needs a --name that is not blank.', 'usage');
      checkName(command.name, '--name', nameLimits.organization);
      // The owner's address is what the API would take for a member's email.
      const emailWrong = command.ownerEmail === undefined ? null : emailProblem(command.ownerEmail);
      if (emailWrong !== null) throw new AdminCommandError(emailWrong, 'usage');
      if (command.ownerName !== undefined && isBlank(command.ownerName))
        throw new AdminCommandError('--owner-name must not be blank.', 'usage');
      if (command.ownerName !== undefined) checkName(command.ownerName, '--owner-name', nameLimits.person);
      // Without an owner the name was dropped, unsaid: it names the member --owner-email makes.
      if (command.ownerName !== undefined && command.ownerEmail === undefined)
        throw new AdminCommandError(
          '--owner-name names the owner --owner-email adds: give --owner-email too, or leave both out.',
          'usage',
        );
      return { ...command, ...recordId(command.id) };
    }
    case 'seed':
      return { ...command, ...recordId(command.id) };
    case 'org deactivate':
      return {
        ...command,
        organizationId: requireId(command.organizationId, 'an organization ID', 'org deactivate <organization-id>'),
      };
    case 'key create': {
      if (command.scopes) checkScopes(command.scopes);
      // As org create: a name given is there to tell the key apart, so not blank.
      if (command.name !== undefined && isBlank(command.name))
        throw new AdminCommandError('key create needs a --name that is not blank (or no --name).', 'usage');
      if (command.name !== undefined) checkName(command.name, '--name', nameLimits.key);
      const expiresAt = command.expiresAt === undefined ? undefined : checkExpiry(command.expiresAt);
      return {
        ...command,
        organizationId: requireId(command.organizationId, 'an organization ID', '--org'),
        ...(expiresAt ? { expiresAt } : {}),
        ...recordId(command.id),
      };
    }
    case 'key revoke':
      return { ...command, keyId: requireId(command.keyId, 'an API key ID', 'key revoke <key-id>') };
    case 'deliveries list': {
      const { limit } = command;
      if (!Number.isInteger(limit) || limit < deliveriesLimit.min || limit > deliveriesLimit.max)
        throw new AdminCommandError(
          `--limit must be an integer from ${deliveriesLimit.min} to ${deliveriesLimit.max}, got '${limit}'.`,
          'usage',
        );
      return { ...command, campaignId: requireId(command.campaignId, 'a campaign ID', '--campaign') };
    }
    default:
      return command;
  }
}

/** `AdminOutput.logged`: the record, and `reissued` when the command answered again with a new secret. */
function logged(recordId: string, reissued: boolean): NonNullable<AdminOutput['logged']> {
  return reissued ? { record_id: recordId, reissued: true } : { record_id: recordId };
}

export async function runAdminCommand(store: SqlStore, given: AdminCommand): Promise<AdminOutput> {
  const command = checkAdminCommand(given);
  switch (command.command) {
    case 'migrate': {
      const applied = await migrate(store.client);
      return {
        text: applied.length ? `Applied migrations ${applied.join(', ')}.` : 'Nothing to apply.',
        json: { applied },
      };
    }
    case 'seed': {
      const earlier = command.id === undefined ? null : await store.organizations.get(command.id);
      const demo =
        earlier === null
          ? await seedDemoOrganization(store, command.id === undefined ? {} : { organizationId: command.id })
          : await seededAgain(store, earlier);
      if (demo === null) throw new AdminCommandError(`organization ${command.id} exists already.`, 'state');
      return {
        text: `Demo organization ${demo.organizationId}\nAPI key (shown once): ${demo.apiKey}`,
        json: demo,
        logged: logged(demo.organizationId, earlier !== null),
      };
    }
    case 'org create': {
      const earlier = command.id === undefined ? null : await store.organizations.get(command.id);
      if (earlier !== null && earlier.name !== command.name)
        throw new AdminCommandError(
          `organization ${earlier.id} exists already, named '${echoed(earlier.name)}'.`,
          'state',
        );
      const organization =
        earlier ??
        (await createOrganization(store, {
          name: command.name,
          ...(command.id === undefined ? {} : { id: command.id }),
          members: command.ownerEmail
            ? [{ email: command.ownerEmail, name: command.ownerName ?? command.ownerEmail, role: 'owner' }]
            : [],
        }));
      return {
        text: `Created organization ${organization.id} (${shownName(organization.name)}).`,
        json: organization,
        logged: logged(organization.id, false),
      };
    }
    case 'org list': {
      const organizations = await store.organizations.list();
      return {
        text:
          organizations
            .map((o) => `${o.id}  ${o.is_active ? 'active     ' : 'deactivated'}  ${shownName(o.name)}`)
            .join('\n') || 'No organizations.',
        json: organizations,
      };
    }
    case 'org deactivate': {
      const organization = await store.organizations.update(command.organizationId, { is_active: false });
      if (!organization) throw noOrganization(command.organizationId);
      return { text: `Deactivated organization ${organization.id}.`, json: organization };
    }
    case 'key create': {
      const organization = await store.organizations.get(command.organizationId);
      if (!organization) throw noOrganization(command.organizationId);
      // Every request with such a key would answer 403 ORGANIZATION_DEACTIVATED (section 5):
      // a key printed as if it worked would only be found out at its first use.
      if (!organization.is_active) throw deactivated(organization.id);
      const wanted = {
        organizationId: command.organizationId,
        name: command.name,
        scopes: command.scopes ? checkScopes(command.scopes) : allScopes,
        expiresAt: command.expiresAt ?? null,
      };
      const earlier = command.id === undefined ? null : await store.apiKeys.get(command.id);
      const issued =
        earlier === null
          ? await createApiKey(store, { ...wanted, ...(command.id === undefined ? {} : { id: command.id }) })
          : await reissueApiKey(store, earlier, wanted);
      if (issued === null) throw new AdminCommandError(`API key ${command.id} exists already.`, 'state');
      const { key, record } = issued;
      const again = earlier === null ? '' : '; a new secret: the first try of this command lost its answer';
      return {
        text: `API key ${record.id} (shown once, only a hash is stored${again}):\n${key}`,
        json: { id: record.id, key, prefix: record.prefix, scopes: record.scopes, expires_at: record.expires_at },
        logged: logged(record.id, earlier !== null),
      };
    }
    case 'key revoke': {
      const record = await store.apiKeys.revoke(command.keyId, new Date().toISOString());
      if (!record) throw new AdminCommandError(`no API key ${command.keyId}.`, 'not-found');
      return { text: `Revoked API key ${record.id}.`, json: { id: record.id, revoked_at: record.revoked_at } };
    }
    case 'deliveries list': {
      const page = await store.deliveries.listForCampaign(command.campaignId, { limit: command.limit, offset: 0 });
      // "No deliveries." would hide a mistyped ID: an empty page is checked against the
      // campaigns of every organization (the operator's command belongs to none).
      if (page.total === 0 && !(await campaignExists(store, command.campaignId))) {
        throw new AdminCommandError(
          `no campaign ${command.campaignId}; GET /v1/campaigns lists an organization's campaigns.`,
          'not-found',
        );
      }
      return { text: page.items.map(describeDelivery).join('\n') || 'No deliveries.', json: page };
    }
  }
}

/**
 * `--expires-at`: an ISO 8601 date-time with an offset or `Z`, or a date (midnight UTC), read
 * as the API reads timestamps, strictly (`new Date` took `90` for 1990 and `2099-02-30` for
 * March), and in the future: a key that has expired already is a mistake.
 */
function checkExpiry(value: string): string {
  const instant = parseTimestamp(value);
  if (instant === null)
    throw new AdminCommandError(
      `--expires-at must be an ISO 8601 date-time with an offset or Z (2030-01-31T00:00:00Z) or a date (2030-01-31), got '${echoed(value)}'.`,
      'usage',
    );
  if (Date.parse(instant) <= Date.now())
    throw new AdminCommandError(`--expires-at must be in the future, got '${echoed(value)}' (${instant}).`, 'usage');
  return instant;
}

async function campaignExists(store: SqlStore, id: string): Promise<boolean> {
  const rows = await store.client.query('select 1 from campaigns where id = $1', [id]);
  return rows.length > 0;
}

function noOrganization(id: string): AdminCommandError {
  return new AdminCommandError(`no organization ${id}; ocs-server org list shows them.`, 'not-found');
}

function deactivated(id: string): AdminCommandError {
  return new AdminCommandError(
    `organization ${id} is deactivated, so no key was created (its keys answer 403 ORGANIZATION_DEACTIVATED); create the key for an active organization (ocs-server org list).`,
    'state',
  );
}

/**
 * `--scopes`, split at its commas. Every item must name a scope, once: an empty one
 * (`leads:read,,crm:read`, a trailing comma) or one named twice (`leads:read,leads:read`) is
 * most likely a scope left out or mistyped, which a key quietly without it would only show at
 * its first `403`; the API refuses repeated items the same way (`uniqueItems`).
 */
function checkScopes(scopes: string[]): Scope[] {
  // `--scopes ''` (or `,`): it said "Unknown scopes: ." A key with no scope could do nothing.
  if (scopes.every((scope) => scope.trim() === ''))
    throw new AdminCommandError(`--scopes needs at least one scope: ${allScopes.join(', ')}.`, 'usage');
  if (scopes.some((scope) => scope.trim() === ''))
    throw new AdminCommandError(
      `--scopes has an empty item (two commas in a row, or one at an end); separate the scopes with single commas: leads:read,crm:read.`,
      'usage',
    );
  const unknown = scopes.filter((scope) => !(allScopes as readonly string[]).includes(scope));
  if (unknown.length)
    throw new AdminCommandError(
      `Unknown scopes: ${unknown.map(echoed).join(', ')}. Known: ${allScopes.join(', ')}.`,
      'usage',
    );
  const repeated = scopes.find((scope, at) => scopes.indexOf(scope) !== at);
  if (repeated !== undefined)
    throw new AdminCommandError(`--scopes names ${repeated} more than once; name each scope once.`, 'usage');
  return scopes as Scope[];
}

/**
 * Checks a command that came over the admin channel (the CLI builds well-formed ones; this
 * keeps anything else from reaching the store).
 */
export function parseAdminCommand(value: unknown): AdminCommand {
  const bad = () => new AdminCommandError('The admin channel received a malformed command.', 'usage');
  if (typeof value !== 'object' || value === null) throw bad();
  const fields = value as Record<string, unknown>;
  if (!adminCommandNames.includes(fields.command as AdminCommand['command'])) throw bad();
  const strings = (...names: string[]) => names.every((name) => typeof fields[name] === 'string');
  const optional = (...names: string[]) =>
    names.every((name) => fields[name] === undefined || typeof fields[name] === 'string');
  switch (fields.command) {
    case 'seed':
      if (!optional('id')) throw bad();
      break;
    case 'org create':
      if (!strings('name') || !optional('ownerEmail', 'ownerName', 'id')) throw bad();
      break;
    case 'org deactivate':
      if (!strings('organizationId')) throw bad();
      break;
    case 'key create':
      if (!strings('organizationId') || !optional('expiresAt', 'name', 'id')) throw bad();
      if (
        fields.scopes !== undefined &&
        !(Array.isArray(fields.scopes) && fields.scopes.every((scope) => typeof scope === 'string'))
      )
        throw bad();
      break;
    case 'key revoke':
      if (!strings('keyId')) throw bad();
      break;
    case 'deliveries list':
      if (!strings('campaignId') || typeof fields.limit !== 'number') throw bad();
      break;
  }
  return value as AdminCommand;
}

/** One delivery and its attempts, a line each, for a terminal. */
function describeDelivery(delivery: DeliveryWithAttempts): string {
  const head = `${delivery.id}  ${delivery.status.padEnd(9)}  attempts ${delivery.attempts_made}  key ${delivery.idempotency_key.slice(0, 12)}…  created ${delivery.created_at}${delivery.next_attempt_at ? `  next ${delivery.next_attempt_at}` : ''}${delivery.last_error ? `  (${shown(delivery.last_error)})` : ''}`;
  const attempts = delivery.attempts.map(
    (a) =>
      `    #${a.attempt} ${a.started_at} ${shown(a.url)} → ${a.ok ? 'ok' : 'failed'} ${a.status ?? '-'} in ${Math.round(a.duration_ms)} ms${a.error ? ` (${shown(a.error)})` : ''}`,
  );
  return [head, ...attempts].join('\n');
}
