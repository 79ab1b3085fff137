/**
 * C31: an @-mention in a question is the token `@[Title](nodeId)`. The token is what the person's text holds
 * (so the wire it stands for can be found again); the compiled question reads `@Title`, and the mentioned
 * node's content arrives through the dashed wire the mention is.
 */
const MENTION = /@\[([^\]\n]{0,200})\]\(([^()\s]{1,200})\)/g;

export interface Mention {
  title: string;
  nodeId: string;
  start: number;
  end: number;
}

export function mentionsIn(text: string): Mention[] {
  const found: Mention[] = [];
  for (const match of text.matchAll(MENTION))
    found.push({ title: match[1]!, nodeId: match[2]!, start: match.index, end: match.index + match[0].length });
  return found;
}

/** The distinct node ids a text mentions, in the order they first appear. */
export function mentionedIds(text: string): string[] {
  return [...new Set(mentionsIn(text).map((mention) => mention.nodeId))];
}

/** A title as a mention holds it: brackets would end the token early and a newline would break the line, so both go. */
export function mentionTitle(title: string): string {
  return title
    .replace(/[[\]\n]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
}

/** The token to insert for a mention. */
export function mentionToken(title: string, nodeId: string): string {
  return `@[${mentionTitle(title)}](${nodeId})`;
}

/** The question as compiled: each mention token read as `@Title`. */
export function renderMentions(text: string): string {
  return text.includes('@[') ? text.replace(MENTION, (_whole, title: string) => `@${title}`) : text;
}

/** The text with every mention of `nodeId` removed (a removed wire takes its mention with it). */
export function withoutMentionsOf(text: string, nodeId: string): string {
  return text
    .replace(MENTION, (whole, _title: string, id: string) => (id === nodeId ? '' : whole))
    .replace(/ {2,}/g, ' ');
}

/** The text with every mention of `nodeId` carrying `title` (the token's node id, and so its wire, unchanged). */
export function withMentionTitle(text: string, nodeId: string, title: string): string {
  const token = mentionToken(title, nodeId);
  return text.replace(MENTION, (whole, _title: string, id: string) => (id === nodeId ? token : whole));
}
