/**
 * Whether a reply is analysed, and its classification when it is. Section 6: when the reply
 * was not analysed every field of `ai_response` except `goal` is null and `goal` gives the
 * reason. A reply is not analysed only when it has no text of the prospect's own (an empty
 * reply, only a signature or a "Sent from my iPhone" footer) or when the classifier failed:
 * it rejected, did not answer in time, or answered something that is not a classification.
 */
import type { ReplyChannel, ReplyClassification, ReplyClassifier } from './classifier.ts';
import { hasWords, replyText } from './reply-text.ts';

export type ReplyAnalysis =
  { analysed: true; classification: ReplyClassification } | { analysed: false; reason: string };

export const notAnalysedReasons = {
  noText: 'skipped: no reply text',
  classificationUnavailable: 'skipped: classification unavailable',
} as const;

/** How long a classifier (a model provider, typically) may take before the reply goes out unanalysed. */
export const defaultClassifyTimeoutMs = 30_000;

export async function analyseReply(
  classifier: ReplyClassifier,
  reply: { message: string | null; channel: ReplyChannel },
  options: { timeoutMs?: number } = {},
): Promise<ReplyAnalysis> {
  const message = replyText(reply.message);
  if (!hasWords(message)) return { analysed: false, reason: notAnalysedReasons.noText };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A classifier that never answers must not hold the webhook back for ever.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('classification timed out')),
      options.timeoutMs ?? defaultClassifyTimeoutMs,
    );
  });
  try {
    const answer: unknown = await Promise.race([classifier.classify({ message, channel: reply.channel }), timeout]);
    if (!isClassification(answer)) return { analysed: false, reason: notAnalysedReasons.classificationUnavailable };
    return { analysed: true, classification: { sentiment: answer.sentiment, out_of_office: answer.out_of_office } };
  } catch {
    return { analysed: false, reason: notAnalysedReasons.classificationUnavailable };
  } finally {
    clearTimeout(timer);
  }
}

function isClassification(value: unknown): value is ReplyClassification {
  if (typeof value !== 'object' || value === null) return false;
  const { sentiment, out_of_office } = value as Record<string, unknown>;
  return (
    (sentiment === 'positive' || sentiment === 'neutral' || sentiment === 'negative') &&
    typeof out_of_office === 'boolean'
  );
}
