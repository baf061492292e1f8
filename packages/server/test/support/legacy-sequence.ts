/**
 * A sequence stored as an old row would hold it (steps sharing an ID, keys the API no longer
 * takes): written through the store, past the checks a request goes through.
 */
import type { Store } from '../../src/store/types.ts';

type StoredSequence = Parameters<Store['campaigns']['replaceSequence']>[2];

export async function storeLegacySequence(
  store: Store,
  organizationId: string,
  campaignId: string,
  sequence: StoredSequence,
): Promise<void> {
  const campaign = await store.campaigns.get(organizationId, campaignId);
  await store.campaigns.replaceSequence(
    organizationId,
    campaignId,
    sequence,
    campaign?.sequence_version ?? 0,
    new Date().toISOString(),
  );
}
