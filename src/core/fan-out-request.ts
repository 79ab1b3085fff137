import { buildRequest, type BuildRequestOptions, type BuiltRequest } from './build-request.ts';
import type { CompiledContext } from './compiled-context.ts';
import { FAN_OUT_INSTRUCTION } from './sub-questions.ts';

/**
 * C33: the request that asks a node's model for sub-questions. A request carries one system message: with a
 * role in force (C29) the instruction follows the role's text in that message (the role still frames how the
 * model thinks; the instruction says what to answer with); with none the instruction is the system message.
 * A context with a role conflict is never sent: the caller asks the person to pick first.
 */
export function fanOutRequest(compiled: CompiledContext, options: Omit<BuildRequestOptions, 'system'>): BuiltRequest {
  const first = compiled.messages[0];
  if (!compiled.role || first?.role !== 'system')
    return buildRequest(compiled, { ...options, system: FAN_OUT_INSTRUCTION });
  const content = first.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const messages = [
    { ...first, content: [{ type: 'text' as const, text: `${content}\n\n${FAN_OUT_INSTRUCTION}` }] },
    ...compiled.messages.slice(1),
  ];
  return buildRequest({ ...compiled, messages }, options);
}
