import { CHAT_TOOL_IDS, CHAT_TOOLS } from '../../core/index.ts';
import type { ChatToolId, QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../app/store-context.tsx';
import { McpToolsSection } from './McpToolsSection.tsx';

/** C35: the tools this question's model may call — all off until the person switches one on. */
export function ToolsSection({ node }: { node: QuestionNode }) {
  const apply = useWeft((state) => state.apply);
  const enabled = node.tools ?? [];
  const toggle = (id: ChatToolId, on: boolean) => {
    const tools = CHAT_TOOL_IDS.filter((candidate) => (candidate === id ? on : enabled.includes(candidate)));
    apply({ type: 'edit-node', nodeId: node.id, patch: { tools } });
  };
  return (
    <div className="section" data-testid="tools-section">
      <div className="section-title">Tools</div>
      {CHAT_TOOL_IDS.map((id) => (
        // One switch a line: with several tools, inline switches run together.
        <label key={id} className="switch" style={{ display: 'flex' }}>
          <input
            type="checkbox"
            data-testid={`tool-${id}`}
            checked={enabled.includes(id)}
            onChange={(event) => toggle(id, event.target.checked)}
          />
          {CHAT_TOOLS[id].label}
        </label>
      ))}
      <McpToolsSection node={node} />
      <div className="hint">
        {enabled.length === 0 && (node.mcpTools ?? []).length === 0
          ? 'Off: the model is offered no tools.'
          : 'The model may search while it answers; each call and its result are kept on the answer.'}
      </div>
    </div>
  );
}
