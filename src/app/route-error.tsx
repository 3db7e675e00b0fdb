import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

/** Shown when a route fails to load or render (e.g. a lazy chunk offline), instead of a blank page. */
export function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  console.error(error);
  return (
    <main className="auth-page" id="main">
      <div className="card auth-card" role="alert">
        <h1>{t('ROUTE_ERROR_TITLE')}</h1>
        <p>{t('ERROR_UNKNOWN')}</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          {t('RELOAD_PAGE')}
        </button>
      </div>
    </main>
  );
}

interface BoundaryState {
  error: unknown;
  /** The address the error happened at: going elsewhere tries the routes again. */
  at: string | null;
}

class Boundary extends Component<{ at: string; children: ReactNode }, BoundaryState> {
  state: BoundaryState = { error: null, at: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error ?? new Error('Route failed') };
  }

  static getDerivedStateFromProps(props: { at: string }, state: BoundaryState): Partial<BoundaryState> | null {
    if (state.error === null) return state.at === props.at ? null : { at: props.at };
    if (state.at === null) return { at: props.at };
    return state.at === props.at ? null : { error: null, at: props.at };
  }

  render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}

/** The errorElement of a route: its children, or RouteError once they throw, until the address changes. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  return <Boundary at={pathname + search}>{children}</Boundary>;
}
