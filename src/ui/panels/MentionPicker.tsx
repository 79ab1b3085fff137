import { useMemo } from 'react';
import type { CanvasNode } from '../../../protocol/index.ts';
import { descendants, isLive, mentionToken } from '../../core/index.ts';
import { useWeft } from '../kit/index.ts';
import { nodeTitle } from '../store/index.ts';

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

/** The live nodes `@query` offers, best first: none below this one (the wire would close a loop). */
export function useMentionCandidates(nodeId: string, query: string | null): CanvasNode[] {
  const graph = useWeft((state) => state.graph);
  const below = useMemo(
    () => (graph && query !== null ? descendants(graph, [nodeId]) : new Set<string>()),
    [graph, nodeId, query],
  );
  return useMemo(() => {
    if (!graph || query === null) return [];
    const needle = query.toLowerCase();
    return [...graph.nodes.values()]
      .filter((node) => node.id !== nodeId && node.kind !== 'frame' && isLive(node) && !below.has(node.id))
      .filter((node) => nodeTitle(node).toLowerCase().includes(needle))
      .slice(0, LIMIT);
  }, [graph, nodeId, query, below]);
}

/** The id of option `index` in the listbox `listId` (what the field's aria-activedescendant names). */
export function mentionOptionId(listId: string, index: number): string {
  return `${listId}-option-${index}`;
}

/**
 * C31: while the person types `@word` in a question, lists the candidate nodes; choosing one hands back its
 * mention token, which the field puts in place of `@word` and core turns into a dashed reference wire. Focus
 * stays in the field: it moves `active` with the arrow keys, and the listbox only shows which option that is.
 */
export function MentionPicker({
  listId,
  query,
  candidates,
  active,
  onActive,
  onPick,
}: {
  listId: string;
  /** What was typed after the @. */
  query: string;
  candidates: CanvasNode[];
  active: number;
  onActive: (index: number) => void;
  onPick: (token: string) => void;
}) {
  if (candidates.length === 0)
    return (
      <div className="mention-picker hint" role="status">
        No node matches “{query}”.
      </div>
    );
  return (
    <div className="mention-picker" role="listbox" id={listId} aria-label="Mention a node" data-testid="mention-picker">
      {candidates.map((node, index) => (
        <div
          key={node.id}
          id={mentionOptionId(listId, index)}
          role="option"
          aria-selected={index === active}
          className={index === active ? 'mention-option active' : 'mention-option'}
          data-testid="mention-option"
          onMouseDown={(event) => event.preventDefault()}
          onMouseEnter={() => onActive(index)}
          onClick={() => onPick(mentionToken(nodeTitle(node), node.id))}
        >
          <span className="card-kind">{node.kind}</span> {nodeTitle(node)}
        </div>
      ))}
    </div>
  );
}
