// The scripted model's request log (JSONL): every request with its body, every reply, every warning.
import fs from 'node:fs';

let logFile = null;
let seq = 0;

/** Where `log` appends; null logs nothing. */
export function openRequestLog(file) {
  logFile = file;
}

export function log(entry) {
  if (!logFile) return;
  fs.appendFileSync(logFile, JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...entry }) + '\n');
}
