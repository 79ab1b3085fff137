import type { CanonicalRequest } from '../../protocol/index.ts';
import type { AssembledRequest } from './build-request.ts';
import type { CompiledContext } from './compiled-context.ts';
import type { EstimateTokens } from './tokens.ts';

/** The parts of a request a person sees counted, in the order they are sent. */
export const REQUEST_TOKEN_PARTS = [
  'role',
  'materials',
  'references',
  'chain',
  'memory',
  'recall',
  'question',
  'tools',
] as const;

export type RequestTokenPart = (typeof REQUEST_TOKEN_PARTS)[number];

export type RequestTokens = Record<RequestTokenPart, number> & { total: number };

/**
 * The tokens of every part the request carries, counted over the request itself (not the compiled context), so the
 * parts add up to the total: the [Memory] and recall blocks, a system line and the offered tools' declarations
 * included. Images are not counted (their size depends on the provider). Pure; `estimate` is the model's counter.
 */
export function requestTokens(
  assembled: AssembledRequest,
  compiled: Pick<CompiledContext, 'sources'>,
  estimate: EstimateTokens,
): RequestTokens {
  const tokens: RequestTokens = {
    role: 0,
    materials: 0,
    references: 0,
    chain: 0,
    memory: 0,
    recall: 0,
    question: 0,
    tools: 0,
    total: 0,
  };
  assembled.request.messages.forEach((message, index) => {
    const from = assembled.messageSources[index];
    const part: RequestTokenPart =
      from?.kind === 'compiled'
        ? (compiled.sources[from.index]?.layer ?? 'chain')
        : from?.source === 'profile'
          ? 'memory'
          : from?.source === 'recall'
            ? 'recall'
            : 'role';
    for (const content of message.content) if (content.type === 'text') tokens[part] += estimate(content.text);
  });
  tokens.tools = toolTokens(assembled.request, estimate);
  for (const part of REQUEST_TOKEN_PARTS) tokens.total += tokens[part];
  return tokens;
}

/** The offered tools as their declarations read (name, description, parameters): what a provider sends the model. */
function toolTokens(request: CanonicalRequest, estimate: EstimateTokens): number {
  const declarations = request.toolDeclarations ?? [];
  return declarations.length ? estimate(JSON.stringify(declarations)) : 0;
}
