/**
 * Which channel each step type sends on. A conditional waits on a LinkedIn connection
 * request, so it belongs to LinkedIn too.
 */
import type { Sequence, SequenceStep } from '../store/records.ts';
import { walkSteps } from './sequence-rules.ts';

export type Channel = 'email' | 'linkedin';

export function stepChannel(type: SequenceStep['type']): Channel {
  return type === 'email' ? 'email' : 'linkedin';
}

/** The channels a sequence sends on (both variations, branches included), email first. */
export function sequenceChannels(sequence: Sequence): Channel[] {
  const used = new Set<Channel>();
  for (const { step } of walkSteps(sequence)) used.add(stepChannel(step.type));
  return (['email', 'linkedin'] as const).filter((channel) => used.has(channel));
}

export const channelLabel: Record<Channel, string> = { email: 'email', linkedin: 'LinkedIn' };
