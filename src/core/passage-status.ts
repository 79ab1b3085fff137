import type { QuestionNode } from '../../protocol/index.ts';
import type { Graph } from './graph.ts';
import { currentAnswer } from './node-text.ts';

/**
 * Where a stored passage stands in its source's answer now. `at`: at its stored offsets; `moved`: elsewhere in
 * the current answer (another version was selected); `missing`: not in the current answer (or the source is
 * gone), which the node marks. The compiled question always carries the stored text.
 */
export function passageStatus(graph: Graph, node: QuestionNode): 'at' | 'moved' | 'missing' | null {
  const passage = node.passage;
  if (!passage) return null;
  const source = graph.nodes.get(passage.sourceId);
  const answer =
    source?.kind === 'question' ? currentAnswer(source)?.text : source?.kind === 'mirror' ? source.answer : null;
  if (!answer) return 'missing';
  if (answer.slice(passage.start, passage.end) === passage.text) return 'at';
  return answer.includes(passage.text) ? 'moved' : 'missing';
}
