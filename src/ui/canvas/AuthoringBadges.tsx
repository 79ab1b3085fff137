import { passageStatus, resolveRole, type Graph, type ResolvedRole } from '../../core/index.ts';
import type { QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { shortModel } from '../store/index.ts';

/** One role resolution shared by every card of a graph: O(nodes + wires) per graph, not per card. */
const rolesByGraph = new WeakMap<Graph, Map<string, ResolvedRole>>();

function roleOf(graph: Graph, nodeId: string): ResolvedRole {
  let memo = rolesByGraph.get(graph);
  if (!memo) {
    memo = new Map();
    rolesByGraph.set(graph, memo);
  }
  return resolveRole(graph, nodeId, memo);
}

/** What a card says about its role, passage and pin; a primitive so cards re-render only when it changes. */
function roleState(graph: Graph | null, node: QuestionNode): 'conflict' | 'own' | 'inherited' | 'none' {
  if (!graph) return 'none';
  const role = roleOf(graph, node.id);
  if (role.kind === 'conflict') return 'conflict';
  if (role.kind === 'none') return 'none';
  return role.role.sourceId === node.id ? 'own' : 'inherited';
}

/** C29–C31 on the card: the model pin, the role (and the pick a conflict needs), a passage gone from its source. */
export function AuthoringBadges({ node }: { node: QuestionNode }) {
  const role = useWeft((state) => roleState(state.graph, node));
  const passage = useWeft((state) => (state.graph && node.passage ? passageStatus(state.graph, node) : null));
  return (
    <>
      {node.model && (
        <span className="badge model" data-testid="model-pin" title={`Pinned to ${node.model}`}>
          📌 {shortModel(node.model)}
        </span>
      )}
      {role === 'own' && (
        <span className="badge role" data-testid="badge-role" title="Sets a role for itself and what follows">
          Role
        </span>
      )}
      {role === 'conflict' && (
        <span className="badge stale" data-testid="badge-role-conflict" title="Its parents bring different roles">
          Pick a role
        </span>
      )}
      {node.passage && (
        <span
          className={`badge ${passage === 'missing' ? 'stale' : 'note'}`}
          data-testid="badge-passage"
          data-status={passage ?? ''}
          title={passage === 'missing' ? 'The passage no longer occurs in its source answer' : 'About a passage'}
        >
          {passage === 'missing' ? 'Passage gone' : 'Passage'}
        </span>
      )}
    </>
  );
}
