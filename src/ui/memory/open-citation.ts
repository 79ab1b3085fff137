import { RunnerSchema } from '../../../protocol/index.ts';
import { openTurn } from '../atlas/index.ts';
import type { WeftStore } from '../store/index.ts';
import { openOrigin } from './open-origin.ts';

const CANVAS_KEY = /^canvas:(.+)#([^#@]+)@[^#@]+$/;
const SESSION_KEY = /^([a-z-]+):(.+)#[^#]+$/;

/**
 * One click from a dossier citation to its turn (C15): a canvas turn opens its node; an agent-session turn opens
 * through the Atlas (its mirror, made when no canvas has it yet).
 */
export async function openCitation(store: WeftStore, turnKey: string): Promise<void> {
  const canvas = CANVAS_KEY.exec(turnKey);
  if (canvas) return openOrigin(store, canvas[1]!, canvas[2]!);
  const session = SESSION_KEY.exec(turnKey);
  const runner = RunnerSchema.safeParse(session?.[1]);
  if (!session || !runner.success) {
    store.getState().toast('error', 'dossier-citation-unknown', `Cannot open ${turnKey}.`);
    return;
  }
  store.getState().closeView('memory');
  await openTurn(store, { runner: runner.data, sessionId: session[2]! }, turnKey);
}
