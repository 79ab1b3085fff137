import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// #30: the renderer's words go through one plural helper (core `plural`) and one date format (core `formatWhen`,
// `formatDay`, `formatClock`). This reads the renderer's sources for the slips a person saw, so a new one fails here.
const RENDERER = path.join(import.meta.dirname, '../src/ui');

function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** Lines of the renderer matching `pattern`, outside comments, as `file:line: text`. */
function slips(pattern: RegExp): string[] {
  return sources(RENDERER).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        pattern.test(line) && !/^\s*(\/\/|\*|\/\*)/.test(line)
          ? [`${path.relative(RENDERER, file)}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
}

describe('the words of the renderer', () => {
  it('has no "(s)" plurals and no hand-made ones', () => {
    expect(slips(/\w\(s\)/)).toEqual([]);
    expect(slips(/=== 1 \? '' : 's'|!== 1 \? 's' : ''/)).toEqual([]);
  });

  it('writes dates one way, in the person’s locale', () => {
    expect(slips(/toLocale(Date|Time)?String\(|toISOString\(\)\.slice\(0, 10\)/)).toEqual([]);
  });

  it('draws no glyph the bundled fonts lack', () => {
    expect(slips(/⑂/)).toEqual([]);
  });

  it('puts no backtick-quoted command in text a person reads', () => {
    // A backtick pair inside JSX text (between > and <), not a template literal.
    expect(slips(/>[^<{`]*`[a-z][^`<]*`[^<]*</)).toEqual([]);
    expect(slips(/^\s+[^<>{}=`]*`weft [a-z-]+/)).toEqual([]);
  });
});
