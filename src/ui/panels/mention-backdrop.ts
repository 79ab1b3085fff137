import type { ShownQuestion } from './shown-mentions.ts';

/**
 * Paints the layer behind the question's textarea straight into the DOM (no React render per key). The layer's text
 * is transparent and only places each mention's background, so a question without mentions needs no copy at all:
 * the layer is emptied once and a keystroke then costs the textarea's own work only.
 */
export function paintBackdrop(layer: HTMLElement, shown: ShownQuestion): void {
  if (shown.mentions.length === 0) {
    if (layer.firstChild) layer.replaceChildren();
    return;
  }
  const parts: (Node | string)[] = [];
  let read = 0;
  for (const mention of shown.mentions) {
    parts.push(shown.text.slice(read, mention.start));
    const chip = document.createElement('mark');
    chip.className = mention.renamedTo === null ? 'mention-chip' : 'mention-chip renamed';
    chip.dataset.nodeId = mention.nodeId;
    chip.dataset.testid = 'mention-chip';
    chip.textContent = shown.text.slice(mention.start, mention.end);
    parts.push(chip);
    read = mention.end;
  }
  // A trailing newline keeps a last empty line as tall as the textarea's.
  parts.push(shown.text.slice(read) + '\n');
  layer.replaceChildren(...parts);
}

/** The layer lines up with the textarea's text box: same padding plus room for its scrollbar, same scroll. */
export function mirror(field: HTMLTextAreaElement, layer: HTMLElement): void {
  const style = getComputedStyle(field);
  const scrollbar =
    field.offsetWidth - field.clientWidth - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
  layer.style.paddingRight = `${parseFloat(style.paddingRight) + Math.max(0, scrollbar)}px`;
  layer.scrollTop = field.scrollTop;
}

/**
 * What the field's React part shows besides the text: the mentions (their places and renames, for the rename notes)
 * and the `@word` being typed at the caret (for the picker). A key that changes neither renders nothing.
 */
export function shownKey(shown: ShownQuestion, query: { start: number; query: string } | null): string {
  const mentions = shown.mentions.map(
    (mention) => `${mention.start}:${mention.end}:${mention.nodeId}:${mention.renamedTo}`,
  );
  return `${mentions.join(',')}|${query ? `${query.start}:${query.query}` : ''}`;
}
