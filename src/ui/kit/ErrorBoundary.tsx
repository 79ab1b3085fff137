import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  children: ReactNode;
  area: string;
}
interface State {
  error: Error | null;
}

/** A failing area shows a coded message and a way back, never a blank screen. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`[weft] ${this.props.area} failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="page" data-testid={`error-${this.props.area}`}>
        <div className="banner" role="alert">
          <strong>Something in the {this.props.area} went wrong.</strong> <code>render-failed</code>:{' '}
          {this.state.error.message}
          <div style={{ marginTop: 8 }}>
            <button className="button small" onClick={() => this.setState({ error: null })}>
              Try again
            </button>{' '}
            <button className="button small" onClick={() => window.location.reload()}>
              Reload
            </button>
          </div>
        </div>
      </div>
    );
  }
}
