// Test support: a process that takes a file lock, says so, and holds it until it is killed (a crashed writer).
// Usage: node --import tsx lock-holder-child.ts <lockPath> <heldMarkerPath>
import { writeFileSync } from 'node:fs';
import { withFileLock } from '../file-lock.ts';

const [lockPath, marker] = process.argv.slice(2);
await withFileLock(lockPath!, async () => {
  writeFileSync(marker!, String(process.pid));
  // Waits until killed: a timer keeps the process alive, the signal handler keeps the awaited promise (and with it
  // the lock's connection) reachable.
  const alive = setInterval(() => undefined, 1_000);
  await new Promise((resolve) => process.once('SIGTERM', resolve));
  clearInterval(alive);
});
