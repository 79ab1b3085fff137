import { useWeft } from '../kit/index.ts';

/**
 * Pending changes replayed onto a newer record (another tab or tool saved first) that could not be applied — their
 * card was deleted there — listed with how many were kept, until the person dismisses the list.
 */
export function UnappliedList() {
  const unapplied = useWeft((state) => state.unapplied);
  const dismiss = useWeft((state) => state.dismissUnapplied);
  if (!unapplied) return null;
  const { canvasName, kept, notApplied } = unapplied;
  return (
    <div className="toast error unapplied" role="alert" data-testid="unapplied-changes">
      <div>
        <div>
          “{canvasName}” was changed elsewhere. {kept} of your unsaved {kept === 1 ? 'change was' : 'changes were'}{' '}
          kept; {notApplied.length} could not be applied:
        </div>
        <ul>
          {notApplied.map((item, index) => (
            <li key={index} data-testid="unapplied-change">
              {item.what}: {item.reason}
            </li>
          ))}
        </ul>
      </div>
      <button aria-label="Dismiss" onClick={dismiss}>
        ✕
      </button>
    </div>
  );
}
