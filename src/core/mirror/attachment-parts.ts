/**
 * A recorded prompt as text and attachments. The agent CLIs write what a person attached into the prompt's text:
 * Pi `<file name="/abs/pixel.png">…</file>` (the file's content inside), Codex `<image name=[Image #1]
 * path="assets/pixel.png">` with `</image>` in a later part, Claude Code a bare `[Image #1]` or
 * `[Pasted text #1 +20 lines]`. A person reads them as chips, never as markup.
 */
export type AttachmentPart =
  | { kind: 'text'; text: string }
  | {
      kind: 'attachment';
      /** What was attached: an image, a file, or text pasted into the prompt. */
      type: 'image' | 'file' | 'paste';
      /** What a chip shows: the file's name, else the CLI's own label ("Image #1"). */
      label: string;
      /** The path or label as recorded, for a tooltip. */
      detail: string;
    };

// An opening tag, its content and its closing tag when they follow (Pi), or the opening tag alone (Codex).
const TAG = /<(file|image)\b([^<>]*)>(?:([\s\S]*?)<\/\1>)?/gi;
const STRAY_CLOSE = /<\/(?:file|image)>/gi;
const MARKER = /\[(Image|Pasted text) #\d+[^\]\n]{0,40}\]/g;
const ANY = new RegExp(`${TAG.source}|${STRAY_CLOSE.source}|${MARKER.source}`, 'gi');

function attribute(attributes: string, name: string): string | null {
  const match = new RegExp(`\\b${name}=(?:"([^"]*)"|'([^']*)'|\\[([^\\]]*)\\]|([^\\s>]+))`, 'i').exec(attributes);
  return match ? (match[1] ?? match[2] ?? match[3] ?? match[4] ?? '') : null;
}

const baseName = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

function tagPart(type: 'file' | 'image', attributes: string): AttachmentPart {
  const name = attribute(attributes, 'name');
  const path = attribute(attributes, 'path') ?? (name && /[\\/.]/.test(name) ? name : null);
  const label = path ? baseName(path) : name || type;
  return {
    kind: 'attachment',
    type,
    label,
    detail: [name, path].filter((part, index, all) => part && all.indexOf(part) === index).join(' · ') || type,
  };
}

/** `text` as its runs of text and its attachments, in order; text around a chip keeps its words, not its markup. */
export function attachmentParts(text: string): AttachmentPart[] {
  const parts: AttachmentPart[] = [];
  let at = 0;
  const pushText = (slice: string) => {
    if (slice) parts.push({ kind: 'text', text: slice });
  };
  for (const match of text.matchAll(ANY)) {
    pushText(text.slice(at, match.index));
    at = match.index + match[0].length;
    if (match[0].startsWith('</')) continue;
    if (match[1]) parts.push(tagPart(match[1].toLowerCase() as 'file' | 'image', match[2] ?? ''));
    else
      parts.push({
        kind: 'attachment',
        type: /^\[Image/i.test(match[0]) ? 'image' : 'paste',
        label: match[0].slice(1, -1),
        detail: match[0].slice(1, -1),
      });
  }
  pushText(text.slice(at));
  return parts;
}

/** The parts cut to about `length` characters of text (chips count by their label), whitespace folded, `…` if cut. */
export function clipParts(parts: readonly AttachmentPart[], length: number): AttachmentPart[] {
  const out: AttachmentPart[] = [];
  let left = length;
  for (const part of parts) {
    if (left <= 0) break;
    if (part.kind === 'attachment') {
      out.push(part);
      left -= part.label.length + 2;
      continue;
    }
    const flat = part.text.replace(/\s+/g, ' ');
    if (flat.length <= left) out.push({ kind: 'text', text: flat });
    else {
      const cut = flat.slice(0, Math.max(0, left - 1));
      const space = cut.lastIndexOf(' ');
      out.push({ kind: 'text', text: `${(space > 0 ? cut.slice(0, space) : cut).trimEnd()}…` });
    }
    left -= flat.length;
  }
  // Folded runs keep one space between words and chips, none at either end.
  const first = out[0];
  if (first?.kind === 'text') first.text = first.text.trimStart();
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text = last.text.trimEnd();
  return out.filter((part) => part.kind !== 'text' || part.text !== '');
}

/** The parts as plain words, a chip as its label: for a title that is one string (search, mentions, tooltips). */
export function attachmentPlainText(text: string): string {
  return attachmentParts(text)
    .map((part) => (part.kind === 'text' ? part.text : part.label))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
