/**
 * The A/B arm a lead gets when its first step is sent (the rule of `LeadEnrolment.variation`):
 * while A/B testing is on, `traffic_split` percent of leads get `a` and the rest `b`; when it
 * is off, or the sequence has no `variation_b`, every lead gets `a`.
 *
 * The arm is a hash of the sequence lead ID, not a random draw: the same lead always lands in
 * the same arm (a retried round cannot flip it), runs repeat exactly, and no counter has to
 * be shared between engines. FNV-1a spreads UUIDs evenly over the 100 buckets.
 */
import type { Arm } from './activity.ts';
import { hasVariationB, storedSequence } from './sequence-steps.ts';
import type { CampaignRecord } from '../store/records.ts';

export function chooseArm(
  campaign: Pick<CampaignRecord, 'ab_testing_enabled' | 'traffic_split' | 'sequence'>,
  enrolmentId: string,
): Arm {
  if (!campaign.ab_testing_enabled || !hasVariationB(storedSequence(campaign.sequence))) return 'a';
  return bucket(enrolmentId) < campaign.traffic_split ? 'a' : 'b';
}

/** 0 to 99, from the 32-bit FNV-1a hash of `id`. */
export function bucket(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 100;
}
