/**
 * The ordered rules of `POST /campaigns/{campaign_id}/webhooks` (and of the deprecated
 * activate operation): a campaign has one response webhook slot, held by its enabled
 * webhook. Given what the campaign has, this decides what a registration does; the handler
 * only carries the decision out.
 */

export interface SlotWebhook {
  id: string;
  url: string;
  enabled: boolean;
}

export type SlotDecision =
  /** 1. The URL is already active: `409 DUPLICATE_WEBHOOK`, whatever `replace` says. */
  | { kind: 'duplicate'; webhookId: string }
  /** 2. A different URL holds the slot and `replace` is not true: `409 WEBHOOK_SLOT_TAKEN`. */
  | { kind: 'slot_taken'; webhookId: string }
  /** 3a. `replace: true`: the holder keeps its ID and is repointed at the new URL. */
  | { kind: 'repoint'; holder: SlotWebhook }
  /** 3b. `replace: true` and a disabled webhook already has the URL: it is re-enabled, the holder disabled. */
  | { kind: 'swap'; holder: SlotWebhook; target: SlotWebhook }
  /** 4. Slot free, a disabled webhook has the URL: re-enabled with its secret kept. */
  | { kind: 're_enable'; target: SlotWebhook }
  /** 5. Slot free, URL new to the campaign: a new webhook. */
  | { kind: 'create' };

/**
 * @param holder the campaign's enabled webhook, if any
 * @param sameUrl the campaign's webhook with the requested URL (enabled or not), if any
 * @example
 * decideRegistration({ holder: null, sameUrl: null, replace: false }); // { kind: 'create' }
 */
export function decideRegistration(input: {
  holder: SlotWebhook | null;
  sameUrl: SlotWebhook | null;
  replace: boolean;
}): SlotDecision {
  const { holder, sameUrl, replace } = input;
  if (sameUrl?.enabled) return { kind: 'duplicate', webhookId: sameUrl.id };
  if (holder) {
    if (!replace) return { kind: 'slot_taken', webhookId: holder.id };
    return sameUrl ? { kind: 'swap', holder, target: sameUrl } : { kind: 'repoint', holder };
  }
  return sameUrl ? { kind: 're_enable', target: sameUrl } : { kind: 'create' };
}
