import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface RecordedTranscript {
  meta: { runtime: string; version: string; scenario: string; cwd: string; outside: string; status: string };
  lines: { direction: 'stdin' | 'stdout'; record: unknown; line: string }[];
}

/** A transcript recorded from a real CLI by scripts/real-clis/record-agent-transcripts.ts. */
export function readTranscript(name: string): RecordedTranscript {
  const file = fileURLToPath(new URL(`../../../tests/fixtures/agents/${name}.jsonl`, import.meta.url));
  const [head, ...rest] = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const { meta } = JSON.parse(head!) as { meta: RecordedTranscript['meta'] };
  const lines = rest.map((text) => {
    const entry = JSON.parse(text) as { stdin?: string; stdout?: string };
    const direction = entry.stdin !== undefined ? ('stdin' as const) : ('stdout' as const);
    const line = entry.stdin ?? entry.stdout ?? '';
    return { direction, record: JSON.parse(line) as unknown, line };
  });
  return { meta, lines };
}
