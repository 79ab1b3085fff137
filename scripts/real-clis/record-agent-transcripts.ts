// Records the agent-lane scenarios (e2e/support/agent-scenarios.ts) from the real pinned Pi and Codex against the
// scripted model into tests/fixtures/agents/<runtime>-<scenario>.jsonl: the adapters' unit tests replay them.
// usage: npx tsx scripts/real-clis/record-agent-transcripts.ts
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_SCENARIOS } from '../../tests/support/agents/agent-scenarios.ts';
import { installRealClis } from '../../tests/support/agents/real-agent-harness.ts';
import { runAgentScenario } from '../../tests/support/agents/run-agent-scenario.ts';
import { repoRoot } from '../../tests/support/browser.ts';

const VERSIONS = { pi: '0.73.1', codex: '0.171.0' } as const;

async function main(): Promise<void> {
  const clis = installRealClis();
  if ('skip' in clis) throw new Error(clis.skip);
  for (const runtime of ['pi', 'codex'] as const) {
    for (const scenario of AGENT_SCENARIOS) {
      const run = await runAgentScenario(runtime, scenario, clis);
      const meta = {
        runtime,
        version: VERSIONS[runtime],
        scenario: scenario.name,
        cwd: run.scratch.repo,
        outside: run.scratch.outside,
        decisions: scenario.decisions,
        status: run.result.status,
      };
      const body = run.lines.map((entry) => JSON.stringify({ [entry.direction]: entry.line }));
      const file = join(repoRoot, 'tests/fixtures/agents', `${runtime}-${scenario.name}.jsonl`);
      writeFileSync(file, [JSON.stringify({ meta }), ...body].join('\n') + '\n');
      process.stdout.write(`${file}: ${run.result.status}, ${run.result.footprints.length} footprints\n`);
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
