/** The part of a selection that falls on one page. */
export interface PageSelectionPart {
  page: number;
  text: string;
}

/** Whitespace as a reader expects it: runs of spaces collapsed, lines trimmed, no blank edges. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Pages a selection carries: each page whose part holds text, in page order, once. */
export function selectionPages(parts: readonly PageSelectionPart[]): number[] {
  const pages = new Set(parts.filter((part) => tidy(part.text) !== '').map((part) => part.page));
  return [...pages].sort((left, right) => left - right);
}

/** The selected text: each page's part, tidied, in page order, separated by a blank line. */
export function selectionText(parts: readonly PageSelectionPart[]): string {
  return [...parts]
    .sort((left, right) => left.page - right.page)
    .map((part) => tidy(part.text))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** A page label for a material title: "p. 3" or "pp. 3–5" (first to last page carried). */
export function pageLabel(pages: readonly number[]): string {
  if (pages.length === 1) return `p. ${pages[0]}`;
  return `pp. ${pages[0]}–${pages[pages.length - 1]}`;
}

/**
 * Splits a DOM range into per-page parts, reading only each page's pdf.js text layer (never the
 * page labels). A line break in the text layer (`<br>`) becomes a newline.
 */
export function readSelectionParts(
  range: Range,
  layers: Iterable<{ page: number; layer: Element }>,
): PageSelectionPart[] {
  const parts: PageSelectionPart[] = [];
  for (const { page, layer } of layers) {
    if (!range.intersectsNode(layer)) continue;
    const walker = layer.ownerDocument.createTreeWalker(layer, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    let text = '';
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!range.intersectsNode(node)) continue;
      if (node.nodeType === Node.TEXT_NODE) {
        const value = node.nodeValue ?? '';
        const start = node === range.startContainer ? range.startOffset : 0;
        const end = node === range.endContainer ? range.endOffset : value.length;
        text += value.slice(start, end);
      } else if ((node as Element).tagName === 'BR') {
        text += '\n';
      }
    }
    parts.push({ page, text });
  }
  return parts;
}
