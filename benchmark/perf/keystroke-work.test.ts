import { describe, expect, it } from 'vitest';
import { workPerKey } from './keystroke-work.ts';

const MAIN = { pid: 1, tid: 7 };
const task = (atMs: number, ms: number) => ({ name: 'RunTask', ph: 'X', ts: atMs * 1000, dur: ms * 1000, ...MAIN });
const inside = (name: string, atMs: number, type?: string) => ({
  name,
  ph: 'X',
  ts: atMs * 1000,
  dur: 100,
  ...MAIN,
  ...(type ? { args: { data: { type } } } : {}),
});

describe('workPerKey (keystroke_p95_* figures)', () => {
  it('sums the main thread tasks from keydown to the frame after the last key event, not the idle time between', () => {
    const trace = [
      { name: 'thread_name', ph: 'M', ts: 0, ...MAIN, args: { name: 'CrRendererMain' } },
      // Another thread's work never counts.
      { name: 'RunTask', ph: 'X', ts: 1000, dur: 50_000, pid: 1, tid: 9 },
      task(0, 2),
      inside('EventDispatch', 0.1, 'keydown'),
      inside('EventDispatch', 0.5, 'input'),
      task(10, 3),
      inside('Commit', 12.5),
      task(14, 1),
      inside('EventDispatch', 14.1, 'keyup'),
      task(20, 1.5),
      inside('Commit', 21),
      // After the key's frame, before the next key: not this key's.
      task(40, 9),
      task(50, 1),
      inside('EventDispatch', 50.1, 'keydown'),
      task(60, 4),
      inside('Commit', 63),
    ];
    expect(workPerKey(trace)).toEqual([2 + 3 + 1 + 1.5, 1 + 4]);
  });

  it('grows with the work a key handler does (a 20 ms handler shows as 20 ms more)', () => {
    const key = (handlerMs: number) => [
      { name: 'thread_name', ph: 'M', ts: 0, ...MAIN, args: { name: 'CrRendererMain' } },
      task(0, 1 + handlerMs),
      inside('EventDispatch', 0.1, 'keydown'),
      task(30, 2),
      inside('Commit', 31),
    ];
    expect(workPerKey(key(20))[0]! - workPerKey(key(0))[0]!).toBe(20);
  });

  it('reads the renderer the keys reached when the browser traces other pages’ renderers too', () => {
    const other = { pid: 2, tid: 3 };
    const trace = [
      // Listed first: another page's renderer (the app's big canvas), busy but typed into by nobody.
      { name: 'thread_name', ph: 'M', ts: 0, ...other, args: { name: 'CrRendererMain' } },
      { name: 'RunTask', ph: 'X', ts: 0, dur: 30_000, ...other },
      { name: 'thread_name', ph: 'M', ts: 0, ...MAIN, args: { name: 'CrRendererMain' } },
      task(0, 2),
      inside('EventDispatch', 0.1, 'keydown'),
      task(10, 3),
      inside('Commit', 12),
    ];
    expect(workPerKey(trace)).toEqual([2 + 3]);
  });
});
