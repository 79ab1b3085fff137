import type { CanonicalRequest } from '../../protocol/index.ts';
import type { RequestContext } from './context-hash.ts';
import { jsHashPort, type HashPort } from './hash-port.ts';
import { canonicalJson } from './hashing.ts';

/** What a set's requests add to their one context: who answers, and how warm. */
export type SetVariant = Pick<CanonicalRequest, 'model' | 'temperature'>;

export interface SetRequestHashes {
  /** `contextHash` of every request of the set (they share one context). */
  contextHash: string;
  /** `hashCanonical` of each variant's whole request, in the order of the variants. */
  requestHashes: string[];
}

/**
 * Issue 31: the context hash and every request hash of a set, with the messages written as canonical JSON once.
 * RFC 8785 sorts keys by UTF-16 code units, and `messages` sorts before every other key of a request (`model`,
 * `temperature`, `toolDeclarations`, `tools`), so each canonical request is `{"messages":<M>,` followed by the
 * canonical rest without its `{`; the digests equal `hashCanonical` of the whole request (a test proves it). The
 * messages are most of a request's bytes: a server checking a set of 32 answers serialises them once, not 33 times.
 */
export function setRequestHashes(
  context: RequestContext,
  variants: readonly SetVariant[],
  hash: HashPort = jsHashPort,
): SetRequestHashes {
  const head = hash.createSha256().update('{"messages":').update(canonicalJson(context.messages));
  const { messages: _messages, ...tools } = context;
  const rest = (value: object) => ',' + canonicalJson(value).slice(1);
  const contextHash = head.clone().update(rest(tools)).digestHex();
  const byVariant = new Map<string, string>();
  const requestHashes = variants.map((variant) => {
    const fields: Omit<CanonicalRequest, 'messages'> = { ...tools, model: variant.model };
    if (variant.temperature !== undefined) fields.temperature = variant.temperature;
    const tail = rest(fields);
    let digest = byVariant.get(tail);
    if (digest === undefined) {
      digest = head.clone().update(tail).digestHex();
      byVariant.set(tail, digest);
    }
    return digest;
  });
  return { contextHash, requestHashes };
}
