import { Component, type ErrorInfo, type ReactNode } from 'react';

/** Any render error that is not a missing page shows the spec's generic text. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('render failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <article className="page error-page" role="alert">
          <h1>An error occurred</h1>
          <p>
            <a href="/">Go to the home page</a>
          </p>
        </article>
      );
    }
    return this.props.children;
  }
}
