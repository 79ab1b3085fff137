/**
 * How often a few costly components rendered, read by the end-to-end tests (`window.weft.renders`) to hold that
 * typing a question re-renders only its field, never the panel around it, the will-send preview or the canvas.
 */
export const renderCounts: Record<string, number> = {};

export function countRender(name: string): void {
  renderCounts[name] = (renderCounts[name] ?? 0) + 1;
}
