import { execFile, spawn } from 'node:child_process';
import { CODEX_INITIALIZE_PARAMS } from './codex-initialize.ts';
import { JsonLines } from './json-lines.ts';

export interface AgentModel {
  /** The runtime's own name for it: Pi `provider/id`, Codex the model id. */
  id: string;
  label: string;
}

const LIST_TIMEOUT_MS = 15_000;

/**
 * Pi's configured models (`pi --list-models`: the providers it has keys or a models.json entry for). Pi 0.73 prints
 * the table on stderr, so both streams are read.
 */
export function listPiModels(bin: string, env: NodeJS.ProcessEnv): Promise<AgentModel[]> {
  return new Promise((resolve) => {
    execFile(
      bin,
      ['--list-models'],
      { env: { ...env, PI_OFFLINE: env.PI_OFFLINE ?? '1' }, timeout: LIST_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return resolve([]);
        const rows = `${stdout}\n${stderr}`.split('\n').filter((row) => !/^provider\s+model\b/.test(row.trim()));
        const models = rows.flatMap((row) => {
          const [provider, model, context] = row.trim().split(/\s+/);
          // A table row has a context size column ("128K"); anything else is a notice.
          return provider && model && /^\d/.test(context ?? '')
            ? [{ id: `${provider}/${model}`, label: `${provider}/${model}` }]
            : [];
        });
        resolve(models);
      },
    );
  });
}

/** Codex's models from `codex app-server` (`model/list`), with the CODEX_HOME Weft owns. */
export function listCodexModels(bin: string, env: NodeJS.ProcessEnv, codexHome: string): Promise<AgentModel[]> {
  return new Promise((resolve) => {
    const child = spawn(bin, ['app-server'], {
      env: { ...env, CODEX_HOME: codexHome },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const done = (models: AgentModel[]) => {
      clearTimeout(timer);
      child.stdin.end();
      child.kill('SIGTERM');
      resolve(models);
    };
    const timer = setTimeout(() => done([]), LIST_TIMEOUT_MS);
    const send = (record: object) => child.stdin.write(JSON.stringify(record) + '\n');
    const lines = new JsonLines((record) => {
      const message = record as { id?: unknown; result?: { data?: unknown } };
      if (message.id === 1) {
        send({ method: 'initialized' });
        send({ id: 2, method: 'model/list', params: {} });
      } else if (message.id === 2) {
        const data = Array.isArray(message.result?.data) ? (message.result.data as Record<string, unknown>[]) : [];
        done(
          data.flatMap((model) =>
            typeof model.model === 'string'
              ? [{ id: model.model, label: typeof model.displayName === 'string' ? model.displayName : model.model }]
              : [],
          ),
        );
      }
    });
    child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
    child.once('error', () => done([]));
    child.once('exit', () => done([]));
    // A Codex that closed its stdin makes the next write fail (EPIPE): no models, and the server keeps running.
    child.stdin.on('error', () => done([]));
    send({
      id: 1,
      method: 'initialize',
      params: CODEX_INITIALIZE_PARAMS,
    });
  });
}
