import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_TEMPLATES, TEMPLATE_SESSION_IDS, type CorpusTemplate } from './corpus-templates.ts';

export interface CorpusOptions {
  directory: string;
  targetBytes: number;
  /** `tests/fixtures/real-sessions`. */
  realSessions: string;
  seed?: number;
}

export interface Corpus {
  roots: string[];
  files: string[];
  bytes: number;
  lines: number;
  /** Turns written (prefix turn + repeated blocks), for checking the index found them all. */
  turns: number;
  /** Rare three-word phrases written into prompts, for `find`. */
  phrases: string[];
  /** Absolute paths the agents edited in the corpus, for `why`. */
  touchedPaths: string[];
  /** Appends about `bytes` of new turns to one Claude Code session; returns the bytes written. */
  appendTurns(bytes: number): number;
}

const PROJECTS = 200;
const DOCUMENTS_PER_PROJECT = 400;
const WORDS = 6000;
const MINIMUM_REPEATS = 5;
const MAXIMUM_REPEATS = 70;

/** Deterministic PRNG so two runs generate the same corpus. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

interface Template extends CorpusTemplate {
  prefix: string;
  block: string;
  /** Ids the prefix defines or mentions (kept per file). */
  prefixIds: Set<string>;
  /** Ids the block defines (`uuid` / `id` fields), in order; fresh per repetition. */
  blockDefined: string[];
}

const TOKEN =
  /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})|"(parentUuid|parentId)":"([0-9a-f-]{8,36})"|"id":"([0-9a-f]{8})"|\b((?:toolu|call|msg|req|fco|fc|rs)_[A-Za-z0-9_]{8,})|(\/tmp\/realsessions\/out\/[a-z]+\/multi-turn\/repo)|(TODO\.md)|(\[multi-turn:\d\])/g;

function loadTemplate(realSessions: string, template: CorpusTemplate): Template {
  const lines = readFileSync(join(realSessions, template.file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const prefix = `${lines.slice(0, template.blockStart - 1).join('\n')}\n`;
  const block = `${lines.slice(template.blockStart - 1).join('\n')}\n`;
  const prefixIds = new Set<string>();
  for (const match of prefix.matchAll(
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|"id":"([0-9a-f]{8})"/g,
  )) {
    prefixIds.add(match[1] ?? match[0]);
  }
  const blockDefined = [
    ...block.matchAll(/"(?:uuid|id)":"([0-9a-f]{8}(?:-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?)"/g),
  ].map((match) => match[1]!);
  return { ...template, prefix, block, prefixIds, blockDefined };
}

/** Per-file rewriting context: the file's own ids, project and the last id of the previous block. */
class FileWriter {
  readonly fileIds = new Map<string, string>();
  lastId: string | null = null;
  repetition = 0;

  constructor(
    readonly template: Template,
    readonly project: string,
    private readonly random: () => number,
    private readonly corpus: { phrases: string[]; touchedPaths: Set<string>; word: () => string },
  ) {}

  private hex(length: number): string {
    let text = '';
    while (text.length < length)
      text += Math.floor(this.random() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return text.slice(0, length);
  }

  private freshLike(original: string): string {
    if (original.length === 36) {
      const hex = this.hex(32);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
    }
    if (/^[0-9a-f]{8}$/.test(original)) return this.hex(8);
    const underscore = original.indexOf('_');
    return original.slice(0, underscore + 1) + this.hex(original.length - underscore - 1);
  }

  private fileId(original: string): string {
    let mapped = this.fileIds.get(original);
    if (!mapped) {
      mapped = this.freshLike(original);
      this.fileIds.set(original, mapped);
    }
    return mapped;
  }

  /** The session id this file carries once rewritten. */
  sessionId(): string {
    return this.fileId(TEMPLATE_SESSION_IDS[this.template.runner]!);
  }

  /** Rewrites the prefix (repetition 0) or one more turn block. */
  render(): string {
    const repetition = this.repetition;
    this.repetition += 1;
    const inBlock = repetition > 0;
    const local = new Map<string, string>();
    const defined = new Set(inBlock ? this.template.blockDefined : []);
    const id = (original: string) => {
      if (!inBlock || (this.template.prefixIds.has(original) && !defined.has(original))) return this.fileId(original);
      let mapped = local.get(original);
      if (!mapped) {
        mapped = this.freshLike(original);
        local.set(original, mapped);
      }
      return mapped;
    };
    const document = `docs/note-${Math.floor(this.random() * DOCUMENTS_PER_PROJECT)}.md`;
    this.corpus.touchedPaths.add(`${this.project}/${document}`);
    const tags = new Map<string, string>();
    const text = (inBlock ? this.template.block : this.template.prefix).replace(
      TOKEN,
      (
        match: string,
        uuid?: string,
        parentField?: string,
        parentValue?: string,
        shortId?: string,
        token?: string,
        repo?: string,
        todo?: string,
        tag?: string,
      ) => {
        if (uuid) return id(uuid);
        if (parentField && parentValue) {
          const outside = inBlock && !defined.has(parentValue);
          const value = outside && repetition > 1 && this.lastId ? this.lastId : id(parentValue);
          return `"${parentField}":"${value}"`;
        }
        if (shortId) return `"id":"${id(shortId)}"`;
        if (token) return inBlock ? id(token) : this.fileId(token);
        if (repo) return this.project;
        if (todo) return document;
        if (tag) {
          let phrase = tags.get(tag);
          if (!phrase) {
            phrase = `${this.corpus.word()} ${this.corpus.word()} ${this.corpus.word()}`;
            tags.set(tag, phrase);
            if (this.corpus.phrases.length < 5000) this.corpus.phrases.push(phrase);
          }
          return `[${phrase}]`;
        }
        return match;
      },
    );
    const last = inBlock ? this.template.blockDefined.at(-1) : undefined;
    if (last) this.lastId = id(last);
    return text;
  }
}

/** Writes the corpus: files of all three runners in their real folder layouts, about `targetBytes` in all. */
export function generateCorpus(options: CorpusOptions): Corpus {
  const random = mulberry32(options.seed ?? 20261129);
  const templates = CORPUS_TEMPLATES.map((template) => loadTemplate(options.realSessions, template));
  const vocabulary = Array.from({ length: WORDS }, (_, position) => {
    const letters = 'bcdfghjklmnprstvz';
    const vowels = 'aeiou';
    let word = '';
    let value = position * 7919 + 17;
    for (let syllable = 0; syllable < 3; syllable += 1) {
      word += letters[value % letters.length]! + vowels[Math.floor(value / letters.length) % vowels.length]!;
      value = Math.floor(value / (letters.length * vowels.length)) + syllable * 31;
    }
    return `${word}${position}`;
  });
  const corpus = {
    phrases: [] as string[],
    touchedPaths: new Set<string>(),
    word: () => vocabulary[Math.floor(random() * WORDS)]!,
  };
  const roots = {
    'claude-code': join(options.directory, 'claude', 'projects'),
    codex: join(options.directory, 'codex', 'sessions'),
    pi: join(options.directory, 'pi', 'sessions'),
  };
  const bytesBy = { 'claude-code': 0, codex: 0, pi: 0 };
  const files: string[] = [];
  let bytes = 0;
  let lines = 0;
  let turns = 0;
  let lastClaude: { path: string; writer: FileWriter } | null = null;
  let fileNumber = 0;
  while (bytes < options.targetBytes) {
    // Pick the runner furthest below its share, so the mix holds at any scale.
    const template = templates.reduce((best, candidate) =>
      bytesBy[candidate.runner] / candidate.weight < bytesBy[best.runner] / best.weight ? candidate : best,
    );
    const project = `/home/dev/src/project-${Math.floor(random() * PROJECTS)}`;
    const writer = new FileWriter(template, project, random, corpus);
    const repeats = MINIMUM_REPEATS + Math.floor(random() * (MAXIMUM_REPEATS - MINIMUM_REPEATS));
    const parts = [writer.render()];
    for (let repetition = 0; repetition < repeats; repetition += 1) parts.push(writer.render());
    const content = parts.join('');
    const path = filePath(roots, template.runner, project, writer.sessionId(), fileNumber);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, content);
    const size = Buffer.byteLength(content);
    files.push(path);
    bytes += size;
    bytesBy[template.runner] += size;
    lines += countLines(content);
    turns += 1 + repeats * 1;
    fileNumber += 1;
    if (template.runner === 'claude-code') lastClaude = { path, writer };
  }
  return {
    roots: Object.values(roots),
    files,
    bytes,
    lines,
    turns,
    phrases: corpus.phrases,
    touchedPaths: [...corpus.touchedPaths],
    appendTurns(target: number): number {
      if (!lastClaude) throw new Error('the corpus has no Claude Code session to append to');
      let written = 0;
      while (written < target) {
        const block = lastClaude.writer.render();
        appendFileSync(lastClaude.path, block);
        written += Buffer.byteLength(block);
      }
      return written;
    },
  };
}

function filePath(
  roots: Record<'claude-code' | 'codex' | 'pi', string>,
  runner: 'claude-code' | 'codex' | 'pi',
  project: string,
  sessionId: string,
  fileNumber: number,
): string {
  const slug = project.replace(/[^A-Za-z0-9]/g, '-');
  const day = String(1 + (fileNumber % 28)).padStart(2, '0');
  if (runner === 'claude-code') return join(roots['claude-code'], slug, `${sessionId}.jsonl`);
  if (runner === 'codex')
    return join(roots.codex, '2026', '11', day, `rollout-2026-11-${day}T12-00-00-${sessionId}.jsonl`);
  return join(roots.pi, `-${slug}--`, `2026-11-${day}T12-00-00-000Z_${sessionId}.jsonl`);
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
