import { UsageError } from '@ocs/server/cli-kit';

/**
 * `--campaign <id>` of `ocs listen` and `ocs trigger`: an empty value (`--campaign=`, or a
 * variable that was not set) is a mistake said at once, rather than read as no campaign:
 * `trigger` would use its own campaign and `listen` would ask the server for a campaign
 * without an ID.
 */
export function checkCampaignIds(ids: readonly string[] | undefined): void {
  if (ids?.some((id) => id.trim() === '')) {
    throw new UsageError('--campaign needs a campaign ID, e.g. --campaign 3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14.');
  }
}
