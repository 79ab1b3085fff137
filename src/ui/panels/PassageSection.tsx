import { passageStatus } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';

/** C30: the passage a branched question is about, and whether it still occurs in its source's current answer. */
export function PassageSection({ node }: { node: QuestionNode }) {
  const graph = useWeft((state) => state.graph);
  if (!graph || !node.passage) return null;
  const status = passageStatus(graph, node);
  return (
    <div className="section" data-testid="passage-section" data-status={status ?? ''}>
      <div className="section-title">
        About a passage of “{nodeTitle(graph.nodes.get(node.passage.sourceId))}”
        {status === 'missing' && (
          <span
            className="badge stale"
            data-testid="passage-missing"
            title="The source's current answer no longer holds it"
          >
            No longer in the answer
          </span>
        )}
        {status === 'moved' && <span className="badge auto">Moved in the answer</span>}
      </div>
      <blockquote className="passage-quote">{node.passage.text}</blockquote>
      <div className="hint">
        Sent before the question as [Regarding this passage: “…”], whichever version the source shows.
      </div>
    </div>
  );
}
