/**
 * The demo organization `npm start` creates on first start: members, connected sender
 * accounts (LinkedIn and email, one disconnected), and a default pipeline with stages, so
 * that every endpoint has something to work with.
 */
import type { OrganizationRecord, SenderAccountRecord, StageRecord } from '../store/records.ts';
import type { Store } from '../store/types.ts';
import { createApiKey, createOrganization, reissueApiKey } from './organizations.ts';

export interface DemoOrganization {
  organizationId: string;
  apiKey: string;
  ownerId: string;
}

const demoName = 'Demo Outreach';
const demoKeyName = 'Demo key';

/** Creates the demo organization, its accounts, pipeline and key, in one transaction. */
export function seedDemoOrganization(
  store: Store,
  options: { name?: string; key?: string; now?: Date; ids?: () => string; organizationId?: string } = {},
): Promise<DemoOrganization> {
  return store.transaction((tx) => seedIn(tx, options));
}

async function seedIn(
  store: Store,
  options: { name?: string; key?: string; now?: Date; ids?: () => string; organizationId?: string },
): Promise<DemoOrganization> {
  const id = options.ids ?? (() => crypto.randomUUID());
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const ownerId = id();
  const organizationId = id();
  const organization = await createOrganization(store, {
    id: options.organizationId ?? organizationId,
    name: options.name ?? demoName,
    now,
    members: [
      { id: ownerId, email: 'owner@demo-outreach.example', name: 'Olivia Owner', role: 'owner' },
      { id: id(), email: 'sam@demo-outreach.example', name: 'Sam Carter', role: 'admin' },
    ],
  });
  const accounts: SenderAccountRecord[] = [
    account('acc_li_demo0001', 'linkedin', 'Sam Carter', 'sam-carter-demo', null, 'connected'),
    account(
      'acc_em_demo0001',
      'email',
      'sam@demo-outreach.example',
      'sam@demo-outreach.example',
      'sam@demo-outreach.example',
      'connected',
    ),
    account('acc_li_demo0002', 'linkedin', 'Lena Fischer', 'lena-fischer-demo', null, 'connected'),
    account(
      'acc_em_demo0002',
      'email',
      'outbound2@demo-outreach.example',
      'outbound2@demo-outreach.example',
      'outbound2@demo-outreach.example',
      'disconnected',
    ),
  ];
  function account(
    accountId: string,
    platform: 'email' | 'linkedin',
    label: string,
    username: string,
    email: string | null,
    status: 'connected' | 'disconnected',
  ): SenderAccountRecord {
    return {
      id: `${accountId}_${organization.id.slice(0, 4)}`,
      organization_id: organization.id,
      platform,
      label,
      status,
      email,
      platform_username: username,
      daily_limit: platform === 'email' ? 50 : 40,
      email_auth:
        platform === 'email' ? { spf: true, dkim: status === 'connected', dmarc: status === 'connected' } : null,
      connected_at: status === 'connected' ? at : null,
      created_at: at,
    };
  }
  const pipelineId = id();
  const stages: Array<Omit<StageRecord, 'id' | 'organization_id' | 'pipeline_id'>> = [
    { name: 'Qualified', position: 0, probability: 20, outcome: 'open' },
    { name: 'Meeting booked', position: 1, probability: 40, outcome: 'open' },
    { name: 'Proposal', position: 2, probability: 60, outcome: 'open' },
    { name: 'Closed won', position: 3, probability: 100, outcome: 'won' },
    { name: 'Closed lost', position: 4, probability: 0, outcome: 'lost' },
  ];
  await store.transaction(async (tx) => {
    for (const record of accounts) await tx.accounts.insert(record);
    await tx.pipelines.insert({
      id: pipelineId,
      organization_id: organization.id,
      name: 'New Business',
      is_active: true,
      is_default: true,
      created_at: at,
      updated_at: at,
    });
    for (const stage of stages) {
      await tx.pipelines.insertStage({ ...stage, id: id(), organization_id: organization.id, pipeline_id: pipelineId });
    }
  });
  const { key } = await createApiKey(store, {
    organizationId: organization.id,
    name: demoKeyName,
    key: options.key,
    now,
  });
  return { organizationId: organization.id, apiKey: key, ownerId };
}

/**
 * `organization`, made by an earlier run of the same `seed` whose answer was lost (decision
 * 0004), with a new secret for its key: the lost one was never shown. Null when that
 * organization is not such a demo organization.
 */
export async function seededAgain(store: Store, organization: OrganizationRecord): Promise<DemoOrganization | null> {
  if (organization.name !== demoName) return null;
  const organizationId = organization.id;
  const owner = (await store.organizations.listMembers(organizationId)).find((member) => member.role === 'owner');
  const keys = await store.apiKeys.listForOrganization(organizationId);
  const key = keys.find((record) => record.name === demoKeyName && record.revoked_at === null);
  if (owner === undefined || key === undefined) return null;
  const issued = await reissueApiKey(store, key, { organizationId, name: demoKeyName });
  return issued === null ? null : { organizationId, apiKey: issued.key, ownerId: owner.id };
}
