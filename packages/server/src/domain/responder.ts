/**
 * The reply agent's settings: what a campaign has before anyone changed them, and how a
 * change applies. `enabled` is not stored here: it is the campaign's `responder_enabled`.
 */
import type { ResponderSettingsRecord } from '../store/records.ts';

/** The appointment-setter agent that handles replies (`ai_response.agent_version`). */
export const responderAgentVersion = 2;

/**
 * Settings of a campaign whose responder was never configured: answer on autopilot once
 * enabled (turning it on should make it answer), wait out out-of-office replies, and close
 * negative replies as lost rather than escalating them. `updated_at` null: never set.
 */
export function defaultResponderSettings(campaignId: string, organizationId: string): ResponderSettingsRecord {
  return {
    campaign_id: campaignId,
    organization_id: organizationId,
    mode: 'autopilot',
    goal: null,
    booking_url: null,
    instructions: null,
    escalate_negative: false,
    handle_out_of_office: true,
    updated_at: null,
  };
}

export type ResponderSettingsChange = Partial<
  Pick<
    ResponderSettingsRecord,
    'mode' | 'goal' | 'booking_url' | 'instructions' | 'escalate_negative' | 'handle_out_of_office'
  >
>;

/** `current` with the sent settings applied; omitted ones keep their value, `null` clears. */
export function applyResponderChange(
  current: ResponderSettingsRecord,
  change: ResponderSettingsChange,
  at: string,
): ResponderSettingsRecord {
  const pick = <K extends keyof ResponderSettingsChange>(key: K): ResponderSettingsRecord[K] => {
    const value = change[key];
    return value === undefined ? current[key] : (value as ResponderSettingsRecord[K]);
  };
  return {
    ...current,
    mode: pick('mode'),
    goal: pick('goal'),
    booking_url: pick('booking_url'),
    instructions: pick('instructions'),
    escalate_negative: pick('escalate_negative'),
    handle_out_of_office: pick('handle_out_of_office'),
    updated_at: at,
  };
}
