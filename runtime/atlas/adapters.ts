import type { Runner } from '../../protocol/index.ts';
import type { Adapter } from './adapter-types.ts';
import { claudeCodeAdapter } from './claude-code-adapter.ts';
import { codexAdapter } from './codex-adapter.ts';
import { piAdapter } from './pi-adapter.ts';

export type { Adapter, RecordContext } from './adapter-types.ts';

const ADAPTERS: Record<Runner, Adapter<never>> = {
  'claude-code': claudeCodeAdapter as Adapter<never>,
  codex: codexAdapter as Adapter<never>,
  pi: piAdapter as Adapter<never>,
};

export function adapterFor(runner: Runner): Adapter<unknown> {
  const adapter = ADAPTERS[runner] as Adapter<unknown> | undefined;
  if (adapter === undefined) throw new Error(`ATLAS_UNKNOWN_RUNNER: ${String(runner)}`);
  return adapter;
}
