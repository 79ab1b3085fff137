import { useMemo } from 'react';
import { descendants, isLive, mentionToken } from '../../core/index.ts';
import { useWeft } from '../app/store-context.tsx';
import { nodeTitle } from '../canvas/node-labels.ts';

const MENTION_QUERY = /@([^\s@[\]()]{0,40})$/;
const LIMIT = 8;

/** The `@word` the caret is in, if any: where it starts and what was typed after the @. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = MENTION_QUERY.exec(text.slice(0, caret));
  if (!match) return null;
  // An @ inside a word (an e-mail address) is not a mention.
  const before = match.index > 0 ? text[match.index - 1]! : ' ';
  return /\s|[(“"]/.test(before) ? { start: match.index, query: match[1]! } : null;
}

/**
 * C31: while the person types `@word` in a question, offers live nodes by title; choosing one hands back its
 * mention token, which the field puts in place of `@word` and core turns into a dashed reference wire. Nodes
 * below this one are left out (the wire would close a loop).
 */
export function MentionPicker({
  nodeId,
  query,
  onPick,
}: {
  nodeId: string;
  /** What was typed after the @. */
  query: string;
  onPick: (token: string) => void;
}) {
  const graph = useWeft((state) => state.graph);
  const below = useMemo(() => (graph ? descendants(graph, [nodeId]) : new Set<string>()), [graph, nodeId]);
  if (!graph) return null;
  const needle = query.toLowerCase();
  const candidates = [...graph.nodes.values()]
    .filter((node) => node.id !== nodeId && node.kind !== 'frame' && isLive(node) && !below.has(node.id))
    .filter((node) => nodeTitle(node).toLowerCase().includes(needle))
    .slice(0, LIMIT);
  if (candidates.length === 0) return <div className="mention-picker hint">No node matches “{query}”.</div>;
  return (
    <div className="mention-picker" role="listbox" data-testid="mention-picker">
      {candidates.map((node) => (
        <button
          key={node.id}
          type="button"
          role="option"
          aria-selected={false}
          className="mention-option"
          data-testid="mention-option"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(mentionToken(nodeTitle(node), node.id))}
        >
          <span className="card-kind">{node.kind}</span> {nodeTitle(node)}
        </button>
      ))}
    </div>
  );
}
