import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readMachineIdentity } from './machine-identity.ts';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function freshHome(): string {
  const folder = mkdtempSync(join(tmpdir(), 'weft-machine-'));
  folders.push(folder);
  return join(folder, 'weft-home');
}

/** readMachineIdentity in a process of its own: prints the id. */
function idFromProcess(home: string): Promise<string> {
  const script = `import { readMachineIdentity } from ${JSON.stringify(join(import.meta.dirname, 'machine-identity.ts'))};
    process.stdout.write(readMachineIdentity(process.argv[1]).id);`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, home]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}`))));
  });
}

describe("a machine's identity for the team index", () => {
  it('is generated once and kept private: the same id at every push, whatever the host is called', () => {
    const home = freshHome();
    const first = readMachineIdentity(home, { WEFT_MACHINE_NAME: 'lab-1', WEFT_PERSON: 'ana' });
    expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'lab-1', person: 'ana' });
    expect(statSync(join(home, 'machine.json')).mode & 0o777).toBe(0o600);
    const renamed = readMachineIdentity(home, { WEFT_MACHINE_NAME: 'lab-renamed', WEFT_PERSON: 'ana' });
    expect(renamed.id).toBe(first.id);
    expect(readMachineIdentity(freshHome(), {}).id).not.toBe(first.id);
  });

  it('two first pushes at once agree on the one id', async () => {
    const home = freshHome();
    const ids = await Promise.all(Array.from({ length: 6 }, () => idFromProcess(home)));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toBe(readMachineIdentity(home, {}).id);
  }, 60_000);
});
