import { runCommand } from '../commands/index.ts';
import { useWeft, useWeftStore } from '../kit/index.ts';
import { UnappliedList } from './UnappliedList.tsx';

export function Toasts() {
  const toasts = useWeft((state) => state.toasts);
  const dismiss = useWeft((state) => state.dismissToast);
  const store = useWeftStore();
  return (
    <div className="toasts" aria-live="polite">
      <UnappliedList />
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast ${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          data-code={toast.code}
        >
          <div>
            {toast.kind === 'error' && <code>{toast.code}</code>} {toast.message}
          </div>
          {toast.action && (
            <button
              className="toast-action"
              data-testid="toast-action"
              onClick={() => {
                dismiss(toast.id);
                void runCommand(store, toast.action!.command, toast.action!.argument);
              }}
            >
              {toast.action.label}
            </button>
          )}
          <button aria-label="Dismiss" onClick={() => dismiss(toast.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
