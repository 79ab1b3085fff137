import type { Dossier, DossierMode, DossierPlan, PendingFact, Topic, TopicRecord } from '../../../protocol/index.ts';
import { dossierPrompt, DOSSIER_MAX_TURNS, turnExcerpt, type DossierTurn } from './dossier-prompt.ts';

/** The keys of the turns labelled with a topic, as the topic store holds them. */
export function labelledKeys(record: TopicRecord, topicId: string): string[] {
  return record.labels.filter((label) => label.topicIds.includes(topicId)).map((label) => label.turnKey);
}

export interface DossierPlanInput {
  topic: Pick<Topic, 'id' | 'name'>;
  mode: DossierMode;
  current: Dossier | null;
  /** The topic's labelled turns that still exist, newest first. */
  turns: readonly DossierTurn[];
  /** Keys this topic's dossier has already read (an update skips them; a rebuild reads everything again). */
  read: ReadonlySet<string>;
  facts: readonly PendingFact[];
  modelId: string | null;
  pricePerMTokIn: number | null;
  estimateTokens: (text: string) => number;
}

/**
 * What a dossier run would do, before it runs (C15): which turns (unread ones for an update, every labelled one
 * for a rebuild, at most `DOSSIER_MAX_TURNS`), which pending facts, the estimated input tokens and price, and the
 * exact text that would leave the machine.
 */
export function planDossier(input: DossierPlanInput): { plan: DossierPlan; turns: DossierTurn[] } {
  const candidates =
    input.mode === 'rebuild' ? input.turns : input.turns.filter((turn) => !input.read.has(turn.turnKey));
  const turns = candidates.slice(0, DOSSIER_MAX_TURNS);
  const current = input.mode === 'rebuild' ? null : input.current;
  const outgoing = dossierPrompt({ topic: input.topic, current, turns, facts: input.facts });
  const inputTokens = input.estimateTokens(outgoing.system) + input.estimateTokens(outgoing.prompt);
  return {
    plan: {
      topicId: input.topic.id,
      mode: input.mode,
      turns: turns.map((turn) => ({
        turnKey: turn.turnKey,
        source: turn.source,
        title: turn.title,
        chars: Array.from(turnExcerpt(turn)).length,
      })),
      facts: [...input.facts],
      turnsLeftOut: candidates.length - turns.length,
      inputTokens,
      price: input.pricePerMTokIn === null ? null : (inputTokens * input.pricePerMTokIn) / 1_000_000,
      modelId: input.modelId,
      outgoing,
    },
    turns,
  };
}
