import type { CanonicalRequest, ModelSet, SetAnswer } from '../../protocol/index.ts';
import { assembleRequest, type BuildRequestOptions, type RequestMessageSource } from './build-request.ts';
import type { CompiledContext } from './compiled-context.ts';
import { contextHash } from './context-hash.ts';
import { shortHash } from './dispatch-handshake.ts';
import type { EventDraft } from './event-log.ts';
import { hashCanonical } from './hashing.ts';
import { plural } from './plural.ts';
import type { SetLimits } from './set-limits.ts';

/** One answer of a set's ask: the request it sends, its hashes, and the tag its version will carry. */
export interface SetDispatch {
  request: CanonicalRequest;
  /** Covers the model and temperature: equal for the samples of one model, different between models. */
  requestHash: string;
  /** The `commit` event to append when this request is actually sent (both hashes, the set and the sample). */
  commit: EventDraft;
  /** What the version written from this answer records (`Version.setAnswer`). */
  setAnswer: SetAnswer;
}

/** Every request of one ask of a set, built from one compiled context. */
export interface SetRequests {
  setId: string;
  /** The one context hash every dispatch carries (messages and tools alone). */
  contextHash: string;
  /** Model by model, sample by sample, in the set's order. */
  dispatches: SetDispatch[];
  messageSources: RequestMessageSource[];
  /** Shown once, e.g. "6 answers, one context: 3f2a…". */
  summary: string;
}

/** Everything `buildRequest` takes except what the set decides (the model, images and temperature). */
export type SetRequestOptions = Omit<BuildRequestOptions, 'model' | 'images' | 'temperature'> & {
  /** The id every version of this ask records (`SetAnswer.setId`). */
  setId: string;
};

/**
 * Issue 31: the requests of one ask of a model set. The context is compiled once (by the caller, to `limits`) and
 * assembled once; each model's request is that same request with its own `model`, so the context hash is one by
 * construction and the request hash differs only by the model. Each sample is its own dispatch of the same request.
 */
export function setRequests(
  compiled: CompiledContext,
  set: ModelSet,
  limits: Pick<SetLimits, 'images'>,
  options: SetRequestOptions,
): SetRequests {
  const { setId, ...buildOptions } = options;
  const { request: base, messageSources } = assembleRequest(compiled, {
    ...buildOptions,
    model: set.models[0]!,
    images: limits.images,
    temperature: set.temperature,
  });
  const context = contextHash(base, options.hash);
  const lane = options.lane ?? 'chat';
  const dispatches: SetDispatch[] = [];
  for (const model of set.models) {
    const request: CanonicalRequest = { ...base, model };
    const requestHash = hashCanonical(request, options.hash);
    for (let sample = 1; sample <= set.samples; sample += 1) {
      dispatches.push({
        request,
        requestHash,
        commit: {
          op: 'commit',
          objectId: compiled.nodeId,
          meta: {
            requestHash,
            contextHash: context,
            messageCount: request.messages.length,
            model,
            lane,
            setId,
            sample,
          },
        },
        setAnswer: { setId, model, sample, temperature: set.temperature, contextHash: context },
      });
    }
  }
  return {
    setId,
    contextHash: context,
    dispatches,
    messageSources,
    summary: `${plural(dispatches.length, 'answer')}, one context: ${shortHash(context)}`,
  };
}
