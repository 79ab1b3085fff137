import type { CanvasMeta, ChatToolId, QuestionNode, ToolDeclaration } from '../../protocol/index.ts';

/** What a question's request offers its model, and why nothing when its canvas blocks it. */
export interface OfferedTools {
  chatTools: ChatToolId[];
  mcpTools: ToolDeclaration[];
  /** The node switched tools on but its canvas does not allow tools: nothing is offered. */
  blockedByCanvas: boolean;
}

/** C35: tools are off by default per canvas and per node; a node's tools are offered only when its canvas allows. */
export function canvasAllowsTools(canvas: Pick<CanvasMeta, 'toolsAllowed'>): boolean {
  return canvas.toolsAllowed === true;
}

/** The tools a question's request offers: its own switches, and none at all while the canvas switch is off. */
export function offeredTools(
  canvas: Pick<CanvasMeta, 'toolsAllowed'>,
  node: Pick<QuestionNode, 'tools' | 'mcpTools'>,
): OfferedTools {
  const chatTools = node.tools ?? [];
  const mcpTools = node.mcpTools ?? [];
  if (canvasAllowsTools(canvas)) return { chatTools, mcpTools, blockedByCanvas: false };
  return { chatTools: [], mcpTools: [], blockedByCanvas: chatTools.length + mcpTools.length > 0 };
}
