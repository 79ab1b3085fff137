import type { CanonicalRequest } from '../../protocol/index.ts';
import type { HashPort } from './hash-port.ts';
import { hashCanonical } from './hashing.ts';

/** What a context hash covers: the request without its model and sampling settings. */
export type RequestContext = Pick<CanonicalRequest, 'messages' | 'tools' | 'toolDeclarations'>;

/** The part of a canonical request that is the context: its messages and tools, nothing about who answers. */
export function requestContext(request: CanonicalRequest): RequestContext {
  const context: RequestContext = { messages: request.messages, tools: request.tools };
  if (request.toolDeclarations) context.toolDeclarations = request.toolDeclarations;
  return context;
}

/**
 * Issue 31: SHA-256 over RFC 8785 canonical JSON of a request's messages and tools alone. The request hash covers
 * the model too, so it differs per model by design; this one is equal exactly when two models were handed the same
 * context, which is how a model set proves every model saw the same bytes. The server recomputes it per dispatch.
 */
export function contextHash(request: CanonicalRequest, hash?: HashPort): string {
  return hashCanonical(requestContext(request), hash);
}
