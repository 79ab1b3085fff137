import { useWeft } from './store-context.tsx';

export function Toasts() {
  const toasts = useWeft((state) => state.toasts);
  const dismiss = useWeft((state) => state.dismissToast);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast ${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'} data-testid="toast" data-code={toast.code}>
          <div>
            {toast.kind === 'error' && <code>{toast.code}</code>} {toast.message}
          </div>
          <button aria-label="Dismiss" onClick={() => dismiss(toast.id)}>✕</button>
        </div>
      ))}
    </div>
  );
}
