/**
 * Just enough of a JSON scanner to edit one member of an object in place, leaving every other byte of
 * the file as it was (`weft setup mcp` must not reformat a person's `.mcp.json`). Input must be valid JSON.
 */
export interface JsonMember {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

export interface JsonObjectSpan {
  open: number;
  close: number;
  members: JsonMember[];
}

export function skipWhitespace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index]!)) index += 1;
  return index;
}

function stringEnd(text: string, index: number): number {
  for (let at = index + 1; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === '"') return at + 1;
  }
  throw new SyntaxError('unterminated string');
}

export function valueEnd(text: string, index: number): number {
  const first = text[index];
  if (first === '"') return stringEnd(text, index);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let at = index; at < text.length; at += 1) {
      const character = text[at];
      if (character === '"') at = stringEnd(text, at) - 1;
      else if (character === '{' || character === '[') depth += 1;
      else if (character === '}' || character === ']') {
        depth -= 1;
        if (depth === 0) return at + 1;
      }
    }
    throw new SyntaxError('unterminated container');
  }
  let at = index;
  while (at < text.length && !/[\s,}\]]/.test(text[at]!)) at += 1;
  return at;
}

/** The members of the object that starts at `open` (the index of its `{`). */
export function objectSpan(text: string, open: number): JsonObjectSpan {
  const members: JsonMember[] = [];
  let at = skipWhitespace(text, open + 1);
  while (text[at] !== '}') {
    const keyStart = at;
    const keyEnd = stringEnd(text, at);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    at = skipWhitespace(text, keyEnd);
    at = skipWhitespace(text, at + 1); // past ':'
    const valueStart = at;
    const end = valueEnd(text, valueStart);
    members.push({ key, keyStart, valueStart, valueEnd: end });
    at = skipWhitespace(text, end);
    if (text[at] === ',') at = skipWhitespace(text, at + 1);
  }
  return { open, close: at, members };
}

/** Adds `"key": value` as the last member, so removing it again gives back the same bytes. */
export function insertMember(
  text: string,
  span: JsonObjectSpan,
  memberText: string,
  indent: string,
  outerIndent: string,
): string {
  const last = span.members.at(-1);
  if (last) return `${text.slice(0, last.valueEnd)},\n${indent}${memberText}${text.slice(last.valueEnd)}`;
  return `${text.slice(0, span.open)}{\n${indent}${memberText}\n${outerIndent}}${text.slice(span.close + 1)}`;
}

export function removeMember(text: string, span: JsonObjectSpan, key: string): string {
  const position = span.members.findIndex((member) => member.key === key);
  if (position === -1) return text;
  const member = span.members[position]!;
  if (span.members.length === 1) return `${text.slice(0, span.open)}{}${text.slice(span.close + 1)}`;
  if (position === span.members.length - 1) {
    const previous = span.members[position - 1]!;
    return text.slice(0, previous.valueEnd) + text.slice(member.valueEnd);
  }
  const next = span.members[position + 1]!;
  return text.slice(0, member.keyStart) + text.slice(next.keyStart);
}

/** The indentation unit a file already uses (two spaces when it shows none). */
export function detectIndent(text: string): string {
  const match = /\n([ \t]+)"/.exec(text);
  return match ? match[1]! : '  ';
}

/** `JSON.stringify(value, null, unit)` with every line after the first shifted right by `prefix`. */
export function indentedJson(value: unknown, unit: string, prefix: string): string {
  return JSON.stringify(value, null, unit).replaceAll('\n', `\n${prefix}`);
}
