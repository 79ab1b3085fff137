/**
 * Well-formed Unicode: no lone surrogates. RFC 8785 refuses them, so text bound for context is
 * made well-formed first (`wellFormed`), and the canonical serialiser checks (`isWellFormed`).
 * Uses the engine's String.prototype.isWellFormed where present (Node 20, current browsers).
 */
type WellFormedCheck = (this: string) => boolean;
const native = (String.prototype as unknown as { isWellFormed?: WellFormedCheck }).isWellFormed;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export function isWellFormed(text: string): boolean {
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/** `text` with each lone surrogate replaced by U+FFFD, which is what any UTF-8 encoder would send. */
export function wellFormed(text: string): string {
  return isWellFormed(text) ? text : text.replace(LONE_SURROGATES, '\uFFFD');
}

/** The first `length` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
export function sliceWhole(text: string, length: number): string {
  const cut = text.slice(0, length);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
