/**
 * A line of Markdown as the words it shows: links and images as their text, code spans without backticks, and
 * emphasis markers (`**`, `__`, `*`, `_`) dropped. For a plaque's takeaway and topic, which are read as plain text
 * (the abstract stays verbatim: it quotes the answer). Markers left unpaired — a sentence can end inside
 * `**…**` — are dropped too; an underscore inside a word (`snake_case`) is kept.
 */
export function inlineText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/!?\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/(`+)(.+?)\1/g, '$2')
    .replace(/\*{2,}|(?<![\p{L}\p{N}])_{2,}|_{2,}(?![\p{L}\p{N}])/gu, '')
    .replace(/(?<![\p{L}\p{N}*])\*(?=\S)(.+?)(?<=\S)\*(?![\p{L}\p{N}*])/gu, '$1')
    .replace(/(?<![\p{L}\p{N}_])_(?=\S)(.+?)(?<=\S)_(?![\p{L}\p{N}_])/gu, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
