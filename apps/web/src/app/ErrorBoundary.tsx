import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Any render error of a page (including a tool chunk that fails to load) shows the generic
 * text, 'An error occurred'. It resets when the path changes.
 */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page render failed', error, info.componentStack);
  }

  override componentDidUpdate(previous: { resetKey: string }): void {
    if (previous.resetKey !== this.props.resetKey && this.state.failed) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (this.state.failed) {
      return (
        <article className="page status-page" role="alert">
          <h1>An error occurred</h1>
          <p>Something went wrong while showing this page. Try again, or go back to the home page.</p>
          <p className="status-links">
            <button type="button" className="button" onClick={() => window.location.reload()}>
              Reload
            </button>
            <a className="button button-primary" href="/">
              Home
            </a>
          </p>
        </article>
      );
    }
    return this.props.children;
  }
}
