import { createHmac, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `$WEFT_HOME/memory/journal-secret`: 32 random bytes (hex), made once per home, never exported or sent. */
export function journalSecretPath(directory: string): string {
  return join(directory, 'journal-secret');
}

const SECRET = /^[0-9a-f]{64}$/;

/** The secrets read, by memory directory: one read per process. */
const secrets = new Map<string, string>();

/**
 * The home's journal secret, made on first use. Written to a temp file and linked into place, so two processes
 * making it at once agree on one (the second link fails and reads the first) and a crash never leaves half of one.
 */
function journalSecret(directory: string): string {
  const known = secrets.get(directory);
  if (known) return known;
  const path = journalSecretPath(directory);
  let secret: string;
  try {
    secret = readFileSync(path, 'utf8').trim();
  } catch {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(temp, randomBytes(32).toString('hex'), { mode: 0o600, flush: true });
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
    secret = readFileSync(path, 'utf8').trim();
  }
  // A secret that is not one would salt nothing: refuse rather than journal guessable ids.
  if (!SECRET.test(secret)) throw new Error(`The memory journal's secret at ${path} is damaged.`);
  secrets.set(directory, secret);
  return secret;
}

/**
 * The journal's id for a content key: HMAC-SHA-256 under the home's secret. The same key gives the same id within
 * the home (a restore names its put-aside), but the id alone does not let a dictionary of short texts recover the
 * words, as the bare content key would.
 */
export function journalObjectId(directory: string, key: string): string {
  return createHmac('sha256', journalSecret(directory)).update(key).digest('hex');
}
