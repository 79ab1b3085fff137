import type { DecideRequest, DecideResponse, LabelJob, Topic, TopicLabel } from '../../protocol/index.ts';
import {
  labelRequest,
  labelsFromProbabilities,
  matchTopicsByName,
  withLabel,
  withoutRemoved,
  type LabelWork,
} from '../../src/core/topics/index.ts';
import type { TopicStore } from './topic-store.ts';
import { WeftError } from '../../protocol/index.ts';

/** Labels are written in batches of this many, so a stop or a crash loses at most one batch. */
const BATCH = 10;

export interface LabelDecider {
  decide(request: DecideRequest): Promise<DecideResponse>;
}

export interface LabelRunOptions {
  store: TopicStore;
  work: readonly LabelWork[];
  /** The topics the plan was made against. */
  topics: readonly Topic[];
  reused: number;
  /** Whether a judge is configured: then each turn is one decision request, else names match in code. */
  judged: boolean;
  decider: LabelDecider;
  now: () => number;
  signal: AbortSignal;
  onProgress?: (job: LabelJob) => void;
}

export function idleJob(): LabelJob {
  return { state: 'idle', total: 0, done: 0, reused: 0, byJudge: 0, byName: 0, message: null };
}

/**
 * One labelling run (C15), started by the person only. Turn by turn: the judge's decision when one is set (a
 * turn it does not answer falls back to name matching, counted as such), else name matching. Stops between turns
 * when `signal` aborts; labels found so far are kept. A label never names a topic deleted during the run, nor one
 * the person removed from that turn while it is unchanged.
 */
export async function runLabelling(options: LabelRunOptions): Promise<LabelJob> {
  const job: LabelJob = { ...idleJob(), state: 'running', total: options.work.length, reused: options.reused };
  const report = () => options.onProgress?.({ ...job });
  report();
  let pending: TopicLabel[] = [];
  const flush = async (final: boolean) => {
    const batch = pending;
    pending = [];
    if (batch.length === 0 && !final) return;
    await options.store.update(null, ({ record }) => {
      const live = new Set(record.topics.map((topic) => topic.id));
      let next = record;
      // The person's removals win: a topic they took off this (unchanged) turn is not given back.
      for (const label of batch) {
        const found = withoutRemoved(record, label.turnKey, label.openingHash, label.topicIds);
        next = withLabel(next, { ...label, topicIds: found.filter((id) => live.has(id)) });
      }
      return {
        record: next,
        events: final
          ? [
              {
                op: 'topics-labelled',
                objectId: 'topics',
                meta: {
                  state: job.state,
                  labelled: job.done,
                  byJudge: job.byJudge,
                  byName: job.byName,
                  reused: job.reused,
                },
              },
            ]
          : [],
        result: null,
      };
    });
  };
  try {
    for (const item of options.work) {
      if (options.signal.aborted) {
        job.state = 'stopped';
        break;
      }
      let topicIds: string[] | null = null;
      if (options.judged) {
        const answer = await options.decider.decide(labelRequest(item.turn, options.topics));
        if (!answer.fallback) topicIds = labelsFromProbabilities(answer.probabilities, options.topics);
      }
      const by = topicIds === null ? 'name' : 'judge';
      topicIds ??= matchTopicsByName(item.turn.opening, options.topics);
      pending.push({
        turnKey: item.turn.turnKey,
        contentHash: item.contentHash,
        openingHash: item.openingHash,
        topicIds,
        by,
        at: options.now(),
      });
      job.done += 1;
      if (by === 'judge') job.byJudge += 1;
      else job.byName += 1;
      if (pending.length >= BATCH) await flush(false);
      report();
    }
    if (job.state === 'running') job.state = 'done';
    await flush(true);
  } catch (error) {
    job.state = 'failed';
    job.message = error instanceof Error ? error.message : String(error);
    // Keep the labels found before the failure and write the run's event; a second failure leaves the first message.
    await flush(true).catch(() => undefined);
  }
  report();
  return { ...job };
}

/** The server's one labelling job at a time: its progress for polling, and its stop switch. */
export class LabelJobRunner {
  private job: LabelJob = idleJob();
  private controller: AbortController | null = null;
  private running: Promise<LabelJob> | null = null;

  status(): LabelJob {
    return { ...this.job };
  }

  start(options: Omit<LabelRunOptions, 'signal' | 'onProgress'>): Promise<LabelJob> {
    if (this.running) throw new WeftError('label-running', 'A labelling run is already going; stop it first.', 409);
    const controller = new AbortController();
    this.controller = controller;
    this.running = runLabelling({
      ...options,
      signal: controller.signal,
      onProgress: (job) => {
        this.job = job;
      },
    }).finally(() => {
      this.running = null;
      this.controller = null;
    });
    return this.running;
  }

  /** Stops between turns; true when a run was going. */
  stop(): boolean {
    if (!this.controller) return false;
    this.controller.abort();
    return true;
  }

  idle(): Promise<unknown> {
    return this.running ?? Promise.resolve();
  }
}
