import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendEvent, chainAnchor, verifyChain } from './event-log.ts';

describe('event chain', () => {
  const logArbitrary = fc.array(
    fc.record({
      op: fc.constantFrom('add', 'edit', 'wire', 'commit'),
      objectId: fc.string({ maxLength: 6 }),
      count: fc.integer(),
    }),
    { minLength: 1, maxLength: 20 },
  );
  const build = (drafts: { op: string; objectId: string; count: number }[]) => {
    const log: ReturnType<typeof appendEvent>[] = [];
    drafts.forEach((draft, index) => {
      log.push(
        appendEvent(
          log,
          { op: draft.op, objectId: draft.objectId, meta: { count: draft.count } },
          { now: index, newId: () => `e${index}` },
        ),
      );
    });
    return log;
  };

  it('detects every single-event tampering: alter, remove, insert, reorder', () => {
    fc.assert(
      fc.property(
        logArbitrary,
        fc.nat(),
        fc.nat(),
        fc.constantFrom('alter-op', 'alter-meta', 'alter-time', 'remove', 'insert', 'reorder'),
        (drafts, first, second, kind) => {
          const log = build(drafts);
          const anchor = chainAnchor(log);
          expect(verifyChain(log)).toBeNull();
          expect(verifyChain(log, anchor)).toBeNull();
          const index = first % log.length;
          const tampered = [...log];
          switch (kind) {
            case 'alter-op':
              tampered[index] = { ...log[index]!, op: `${log[index]!.op}!` };
              break;
            case 'alter-meta':
              tampered[index] = { ...log[index]!, meta: { count: Number(log[index]!.meta.count) + 1 } };
              break;
            case 'alter-time':
              tampered[index] = { ...log[index]!, at: log[index]!.at + 1 };
              break;
            case 'remove':
              tampered.splice(index, 1);
              break;
            case 'insert': {
              // A forger can make a self-consistent event; the chain after it still breaks.
              const position = second % (log.length + 1);
              const forged = appendEvent(
                log.slice(0, position),
                { op: 'delete', objectId: 'x', meta: {} },
                { now: 0, newId: () => 'forged' },
              );
              tampered.splice(position, 0, forged);
              break;
            }
            case 'reorder': {
              if (log.length < 2) return;
              const other = (index + 1 + (second % (log.length - 1))) % log.length;
              [tampered[index], tampered[other]] = [tampered[other]!, tampered[index]!];
              break;
            }
          }
          // A valid event added after the last one is an append, which the log allows.
          const append = kind === 'insert' && second % (log.length + 1) === log.length;
          if (!append) expect(verifyChain(tampered, anchor)).not.toBeNull();
          // Without an anchor only removing the last event is invisible; everything else is caught.
          const truncation = kind === 'remove' && index === log.length - 1;
          if (!append && !truncation) expect(verifyChain(tampered)).not.toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});
