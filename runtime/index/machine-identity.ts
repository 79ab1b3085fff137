import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';

/** Who pushes to the team index: this machine (a stable id and its name) and the person using it. */
export interface MachineIdentity {
  /** Generated once and kept in `$WEFT_HOME/machine.json`: a renamed host stays the same machine. */
  id: string;
  /** The host's name (`WEFT_MACHINE_NAME` overrides it), shown in answers. */
  name: string;
  /** `WEFT_PERSON`, else the OS user. */
  person: string;
}

/** How an answer from a team index of several machines names one of them. */
export type MachineLabel = MachineIdentity;

const FILE = 'machine.json';

/** This machine's identity; the id is created on first use (file 0600; two first pushes at once agree on it). */
export function readMachineIdentity(weftHome: string, env: NodeJS.ProcessEnv = process.env): MachineIdentity {
  const path = join(weftHome, FILE);
  const id = readId(path) ?? createId(weftHome, path);
  return {
    id,
    name: env.WEFT_MACHINE_NAME || hostname(),
    person: env.WEFT_PERSON || osUser(env),
  };
}

function osUser(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    // A uid without a passwd entry (some containers).
    return env.USER || 'unknown';
  }
}

function readId(path: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as { id?: unknown };
    return typeof parsed.id === 'string' && parsed.id !== '' ? parsed.id : null;
  } catch {
    return null;
  }
}

function createId(weftHome: string, path: string): string {
  mkdirSync(weftHome, { recursive: true, mode: 0o700 });
  // Written whole beside it, then linked into place: a link never replaces a file, and no reader sees it half written.
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ id: randomUUID() })}\n`, { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (error) {
    // Another process created it first: its id is the machine's.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
  const id = readId(path);
  if (!id) throw new Error(`${path} holds no machine id`);
  return id;
}
