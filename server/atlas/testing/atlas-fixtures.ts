import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test support: a temporary copy of `tests/fixtures/real-sessions/` laid out the way the runners do —
 * one root per recorded case (`claude/<case>/projects`, `codex/<case>/sessions`, `pi/<case>/sessions`).
 */
export const REAL_SESSIONS = fileURLToPath(new URL('../../../tests/fixtures/real-sessions/', import.meta.url));

export interface AtlasFixtures {
  directory: string;
  /** The copied `real-sessions` folder. */
  sessions: string;
  roots: string[];
  /** `WEFT_SESSION_ROOTS` for these roots. */
  rootsVariable: string;
  weftHome: string;
  dispose(): void;
}

export function copyAtlasFixtures(prefix = 'weft-atlas-'): AtlasFixtures {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const sessions = join(directory, 'real-sessions');
  cpSync(REAL_SESSIONS, sessions, { recursive: true });
  const roots: string[] = [];
  for (const [runner, folder] of [
    ['claude', 'projects'],
    ['codex', 'sessions'],
    ['pi', 'sessions'],
  ] as const) {
    for (const recordedCase of readdirSync(join(sessions, runner)).sort())
      roots.push(join(sessions, runner, recordedCase, folder));
  }
  const weftHome = join(directory, 'weft-home');
  return {
    directory,
    sessions,
    roots,
    rootsVariable: roots.join(delimiter),
    weftHome,
    dispose: () => rmSync(directory, { recursive: true, force: true }),
  };
}

/** SHA-256 of every file under `folder` (relative path → hash), to prove nothing under a root was written. */
export function hashTree(folder: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current).sort()) {
      const full = join(current, entry);
      if (statSync(full).isDirectory()) walk(full);
      else hashes[relative(folder, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(folder);
  return hashes;
}

export const CLAUDE_SUBAGENT_SESSION = '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3';
export const CLAUDE_SUBAGENT_RUN = '195b5b8f-a852-4bc6-b7e0-b737f1ca64d3/agent-a364d2f0ac3b26c85';
export const CODEX_MULTI_SESSION = '01a22732-657a-7592-b814-5874c3ab6165';
export const PI_MULTI_SESSION = '01a22732-78f8-7285-85e1-77d70ff3cfd9';
export const PI_MULTI_FILE =
  'pi/multi-turn/sessions/--tmp-realsessions-out-pi-multi-turn-repo--/2026-11-29T12-05-48-923Z_01a22732-78f8-7285-85e1-77d70ff3cfd9.jsonl';
export const CODEX_MULTI_FILE =
  'codex/multi-turn/sessions/2026/11/29/rollout-2026-11-29T12-05-43-01a22732-657a-7592-b814-5874c3ab6165.jsonl';

/** Two pi session lines (a user turn and the assistant's answer) to append to the pi multi-turn fixture. */
export function piTurnLines(question: string, answer: string, number: number, parentId = '6ac96fd0'): string {
  const at = Date.UTC(2026, 10, 29, 13, 0, number);
  const userId = `u${number.toString(16).padStart(7, '0')}`;
  const assistantId = `a${number.toString(16).padStart(7, '0')}`;
  const user = {
    type: 'message',
    id: userId,
    parentId,
    timestamp: new Date(at).toISOString(),
    message: { role: 'user', content: [{ type: 'text', text: question }], timestamp: at },
  };
  const assistant = {
    type: 'message',
    id: assistantId,
    parentId: userId,
    timestamp: new Date(at + 500).toISOString(),
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: answer }],
      api: 'openai-completions',
      provider: 'scripted',
      model: 'scripted-coder',
      stopReason: 'stop',
      timestamp: at + 500,
    },
  };
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}
