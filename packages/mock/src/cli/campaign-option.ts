import { echoed, UsageError } from '@ocs/server/cli-kit';

/** The API's campaign IDs: UUIDs, 8-4-4-4-12 hex digits (the document's `uuid` format). */
const uuidForm = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `--campaign <id>` of `ocs listen` and `ocs trigger`: an empty value (`--campaign=`, or a
 * variable that was not set) is a mistake said at once, rather than read as no campaign:
 * `trigger` would use its own campaign and `listen` would ask the server for a campaign
 * without an ID. So is a value that is no campaign ID (a name, a typo): the server's 404 or
 * "not found" would say so as a failure (exit 1), after a request.
 */
export function checkCampaignIds(ids: readonly string[] | undefined): void {
  for (const id of ids ?? []) {
    if (id.trim() === '') {
      throw new UsageError('--campaign needs a campaign ID, e.g. --campaign 3c9e7a52-8f14-4d6b-a1e3-5b2c7d9f0a14.');
    }
    if (!uuidForm.test(id)) {
      throw new UsageError(`--campaign must be a campaign ID (a UUID), got '${echoed(id)}'.`);
    }
  }
}

/**
 * A `--campaign` the server does not know for this key: the ID is wrong, or the campaign is
 * another organization's (each key sees its own organization's campaigns only).
 */
export function campaignNotFound(campaignId: string, baseUrl: string): string {
  return `campaign ${campaignId} not found with this API key on ${echoed(baseUrl)}: check the ID (GET /campaigns lists the key's campaigns), or pass the key of the organization that owns it with --api-key or OCS_API_KEY.`;
}
