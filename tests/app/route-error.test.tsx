// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NavigationBridge, navigateTo } from '../../src/app/router';
import { RouteErrorBoundary } from '../../src/app/route-error';
import { i18n } from '../../src/i18n/i18n';

afterEach(() => cleanup());

function Broken(): never {
  throw new Error('chunk failed');
}

function renderAt(path: string) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <NavigationBridge />
        <RouteErrorBoundary>
          <Routes>
            <Route path="broken" element={<Broken />} />
            <Route path="fine" element={<p>fine page</p>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

describe('the route error boundary (errorElement of the declarative routes)', () => {
  it('shows the route error for a page that fails, and the pages again once the address changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/broken');
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong');
    act(() => navigateTo('/fine'));
    expect(screen.getByText('fine page')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    vi.restoreAllMocks();
  });

  it('navigateTo goes through the mounted router', () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAt('/fine');
    act(() => navigateTo('/broken'));
    expect(screen.getByRole('alert')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});
