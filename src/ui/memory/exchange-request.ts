import type { CompiledContext, Graph } from '../../core/index.ts';
import type { MemoryJudgeRequest } from '../../../protocol/index.ts';

/**
 * The exchange of one ordinary ask as the judge gets it: the question and the notes the person wrote (the only
 * texts that can be evidence), the answer, and the materials, mirrored agent turns and [Memory] block that reached
 * the request (context the constitution uses to tell an excerpt from the person's words).
 */
export function exchangeRequest(
  graph: Graph,
  compiled: CompiledContext,
  ask: {
    nodeId: string;
    question: string;
    versionId: string;
    commitHash: string;
    answer: string;
    memoryBlock: string | null;
  },
): Omit<MemoryJudgeRequest, 'visitId'> {
  const notes: MemoryJudgeRequest['notes'] = [];
  const other: MemoryJudgeRequest['other'] = [];
  compiled.sources.forEach((source, index) => {
    if (source.nodeId === ask.nodeId) return;
    const node = graph.nodes.get(source.nodeId);
    const text = (compiled.messages[index]?.content ?? [])
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('\n');
    if (node?.kind === 'note' && source.part === 'note') notes.push({ nodeId: node.id, text: node.text });
    else if (node?.kind === 'mirror') other.push({ kind: 'mirror', text });
    else if (source.part === 'material' || node?.kind === 'material') other.push({ kind: 'material', text });
  });
  if (ask.memoryBlock) other.push({ kind: 'memory', text: ask.memoryBlock });
  return {
    canvasId: graph.canvas.id,
    nodeId: ask.nodeId,
    versionId: ask.versionId,
    commitHash: ask.commitHash,
    question: ask.question,
    notes,
    answer: ask.answer,
    other,
  };
}
