import { canvasAllowsTools, CHAT_TOOL_IDS, CHAT_TOOLS } from '../../core/index.ts';
import type { ChatToolId, QuestionNode } from '../../../protocol/index.ts';
import { useWeft } from '../kit/index.ts';
import { McpToolsSection } from './McpToolsSection.tsx';

/** C35: the tools this question's model may call — all off until the person switches one on. */
export function ToolsSection({ node }: { node: QuestionNode }) {
  const apply = useWeft((state) => state.apply);
  const allowed = useWeft((state) => (state.graph ? canvasAllowsTools(state.graph.canvas) : false));
  const enabled = node.tools ?? [];
  const blocked = !allowed && enabled.length + (node.mcpTools ?? []).length > 0;
  const toggle = (id: ChatToolId, on: boolean) => {
    const tools = CHAT_TOOL_IDS.filter((candidate) => (candidate === id ? on : enabled.includes(candidate)));
    apply({ type: 'edit-node', nodeId: node.id, patch: { tools } });
  };
  return (
    <div className="section" data-testid="tools-section">
      <div className="section-title">Tools</div>
      {/* C35: the canvas-wide switch; a question's own switches count only while it is on. */}
      <label className="switch" style={{ display: 'flex' }}>
        <input
          type="checkbox"
          data-testid="canvas-tools-allowed"
          checked={allowed}
          onChange={(event) => apply({ type: 'set-canvas-tools', allowed: event.target.checked })}
        />
        Allow tools on this canvas
      </label>
      {blocked && (
        <div className="hint" data-testid="tools-blocked">
          Tools are off for this canvas: the switches below are kept, but nothing is offered to the model until the
          canvas allows tools.
        </div>
      )}
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
        {blocked
          ? 'Blocked by the canvas switch: the model is offered no tools.'
          : enabled.length === 0 && (node.mcpTools ?? []).length === 0
            ? 'Off: the model is offered no tools.'
            : 'The model may search while it answers; each call and its result are kept on the answer.'}
      </div>
    </div>
  );
}
