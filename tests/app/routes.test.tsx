// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/db/db';
import { getSession, resetSessionForTests, setSession } from '../../src/session/session';
import { getRememberedDatabase, rememberDatabase } from '../../src/features/select/select-logic';
import { renderApp } from './render-app';
import { fakeServer } from './fake-server';

beforeEach(async () => {
  resetSessionForTests();
  await db.settings.clear();
});
afterEach(() => cleanup());

const signIn = () => setSession({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });

describe('login', () => {
  it('has labelled fields and signs in to the redirect address', async () => {
    const app = renderApp('/login?redirectUrl=%2Fview%3Fdb%3D2', fakeServer());
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'user' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'user' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.here()).toBe('/view?db=2'));
    expect(getSession()).toMatchObject({ token: 'token-of-user-0123456789', licenceType: 1, userName: 'user' });
    expect(app.calls[0]!.url.search).toBe('');
  });

  it('goes to /select without a redirect address', async () => {
    const app = renderApp('/login', fakeServer());
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'admin' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/select'));
  });

  it('shows a wrong password and a full licence pool in the form', async () => {
    renderApp('/login', fakeServer());
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'user' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/invalid user name or password/i);
    fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'kiosk' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'kiosk' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('No licence could be obtained: All licenses are in use')).toBeTruthy();
    expect(getSession()).toBeNull();
  });

  it('shows the licence-expired title and message from the address', () => {
    renderApp('/login?isLicenseExpired=true&errorTitle=Licence%20gone&errorMessage=Please%20come%20back', fakeServer());
    expect(screen.getByText('Licence gone')).toBeTruthy();
    expect(screen.getByText('Please come back')).toBeTruthy();
  });
});

describe('guards and /direct', () => {
  it('an app route without a session goes to the login page with a way back', async () => {
    const app = renderApp('/view?db=3', fakeServer());
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(app.router.state.location.search).toBe('?redirectUrl=%2Fview%3Fdb%3D3');
  });

  it('unknown routes go to /select', async () => {
    await signIn();
    const app = renderApp('/nowhere', fakeServer());
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/select'));
  });

  it('/direct?op=1 without a session asks to sign in and comes back', async () => {
    const app = renderApp('/direct?op=1&db=2', fakeServer());
    await waitFor(() => expect(app.here()).toBe('/login?redirectUrl=%2Fdirect%3Fop%3D1%26db%3D2'));
  });

  it('/direct?op=1 with a session validates and opens /view with the token, which is then stripped', async () => {
    await signIn();
    const app = renderApp('/direct?op=1&db=2', fakeServer());
    await waitFor(() => expect(app.here()).toBe('/view?db=2'));
    expect(await screen.findByText('Database: Human Resources')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeTruthy();
  });

  it('a licence released elsewhere ends on the licence-expired page when a database is opened', async () => {
    await signIn();
    let released = false;
    const server = fakeServer();
    const app = renderApp('/select', (url, init) => {
      if (released && url.pathname !== '/api/licenses/') return new Response(JSON.stringify({ Message: 'LicenseExpired' }), { status: 401, headers: { 'content-type': 'application/json' } });
      return server(url, init);
    });
    const hr = await screen.findByRole('button', { name: 'Human Resources' });
    released = true;
    fireEvent.click(hr);
    expect(await screen.findByRole('heading', { name: /licen[cs]e expired/i })).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/direct');
    await waitFor(() => expect(getSession()).toBeNull());
  });

  it('/direct?op=1 with a restricted licence goes to /select', async () => {
    await signIn();
    const app = renderApp('/direct?op=1&db=2', fakeServer({ restricted: true }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/select'));
  });

  it('/direct?op=2 is the licence-expired page with a sign-in button', async () => {
    renderApp('/direct?op=2', fakeServer());
    expect(screen.getByRole('heading', { name: /licen[cs]e expired/i })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(screen.getByLabelText('User name')).toBeTruthy());
  });

  it('a token in the address becomes the session, named after its user, and leaves the address', async () => {
    const app = renderApp('/select?token=token-from-link-0123456789', fakeServer());
    await waitFor(() => expect(app.here()).toBe('/select'));
    expect(getSession()?.token).toBe('token-from-link-0123456789');
    // As a sign-in names it: what the device keeps is kept per user, and stamps carry the name.
    expect(getSession()?.userName).toBe('user');
  });

  it('a session from a link that could not learn its user (offline then) is named once the header hears who it is', async () => {
    await setSession({ token: 'token-from-link-0123456789', licenceType: null, userName: null });
    renderApp('/select', fakeServer());
    await waitFor(() => expect(getSession()?.userName).toBe('user'));
  });

  it('a token of another user drops the answers kept for the one before; the same user keeps them', async () => {
    await setSession({ token: 'token-of-admin-0123456789', licenceType: 1, userName: 'admin' });
    const other = renderApp('/select?token=token-from-link-0123456789', fakeServer());
    other.queryClient.setQueryData(['kept'], 'for admin');
    await waitFor(() => expect(getSession()?.userName).toBe('user'));
    await waitFor(() => expect(other.here()).toBe('/select'));
    expect(other.queryClient.getQueryData(['kept'])).toBeUndefined();
    cleanup();

    const same = renderApp('/select?token=token-from-link-9876543210', fakeServer());
    same.queryClient.setQueryData(['kept'], 'for user');
    await waitFor(() => expect(getSession()?.token).toBe('token-from-link-9876543210'));
    await waitFor(() => expect(same.here()).toBe('/select'));
    expect(getSession()?.userName).toBe('user');
    expect(same.queryClient.getQueryData(['kept'])).toBe('for user');
  });

  it("a sign-in as another user drops the grid pages kept for the one before, also after a sign-out; the same user keeps them", async () => {
    const page = { gridKey: 'search|1|2', page: 1, pageSize: 25, data: { Count: 1, Docs: [] }, fetchedAt: 1, lastUsed: 1, bytes: 10 };
    const signInAs = async (name: string) => {
      const app = renderApp('/login', fakeServer());
      fireEvent.change(screen.getByLabelText('User name'), { target: { value: name } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: name } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => expect(app.router.state.location.pathname).not.toBe('/login'));
      cleanup();
    };
    await db.pages.clear();
    await signInAs('admin');
    await db.pages.put({ key: 'admin-page', ...page });
    await signInAs('admin');
    expect(await db.pages.count()).toBe(1);
    // admin signs out (no session left), user signs in on the same device.
    resetSessionForTests();
    await db.settings.delete('session');
    await signInAs('user');
    expect(await db.pages.count()).toBe(0);
  });

  it('an invalid licence ends on the licence-expired page', async () => {
    await signIn();
    const app = renderApp('/select', fakeServer({ valid: false }));
    await waitFor(() => expect(app.here()).toBe('/direct?op=2'));
  });
});

describe('/select', () => {
  it('lists databases as buttons named by the database; choosing opens /view and is remembered', async () => {
    await signIn();
    const app = renderApp('/select', fakeServer());
    fireEvent.click(await screen.findByRole('button', { name: 'Human Resources' }));
    await waitFor(() => expect(app.here()).toBe('/view?db=2'));
    await waitFor(async () => expect(await getRememberedDatabase()).toBe(2));
  });

  it('marks the remembered database', async () => {
    await signIn();
    await rememberDatabase(1);
    renderApp('/select', fakeServer());
    const sales = await screen.findByRole('button', { name: 'Sales' });
    await waitFor(() => expect(sales.getAttribute('aria-current')).toBe('true'));
  });

  it('opens the only database at once', async () => {
    await signIn();
    const app = renderApp('/select', fakeServer({ databases: [{ Id: 7, Name: 'Only' }] }));
    await waitFor(() => expect(app.here()).toBe('/view?db=7'));
  });

  it('says ERROR_NO_DATABASES with none and ERROR_GET_DATABASES on failure', async () => {
    await signIn();
    renderApp('/select', fakeServer({ databases: [] }));
    expect(await screen.findByText('No databases are available to you.')).toBeTruthy();
    cleanup();
    renderApp('/select', fakeServer({ databases: 'fail' }));
    expect(await screen.findByText('The list of databases could not be loaded.')).toBeTruthy();
  });
});

describe('header', () => {
  it('an administrator sees the admin buttons in one menu: Full administration enabled (the console), the screens not built yet disabled', async () => {
    await signIn();
    renderApp('/select', fakeServer({ admin: true }));
    const menu = await screen.findByRole('button', { name: 'Administration' });
    expect(screen.queryByRole('button', { name: 'Full administration' })).toBeNull();
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    const full = await screen.findByRole('button', { name: 'Full administration' });
    expect((full as HTMLButtonElement).disabled).toBe(false);
    const licence = screen.getByRole('button', { name: 'Licence manager' }) as HTMLButtonElement;
    expect(licence.disabled).toBe(true);
    expect(licence.getAttribute('title')).toBe('Not available yet');
    expect(screen.getByRole('button', { name: 'User administration' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Switch database' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('a plain user sees no admin buttons; Settings and Log out work', async () => {
    await signIn();
    const app = renderApp('/select', fakeServer());
    await screen.findByRole('button', { name: 'Sales' });
    await waitFor(() => expect(app.calls.some((c) => c.url.searchParams.get('function') === 'user')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Administration' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Full administration' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/settings'));
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await screen.findByText(/Thank you for using/)).toBeTruthy();
    expect(getSession()).toBeNull();
    expect(app.calls.some((c) => c.init?.method === 'DELETE' && c.url.pathname === '/api/licenses/token-of-user-0123456789')).toBe(true);
  });
});

describe('/logout', () => {
  it('with db=0&op=2 shows the thank-you message', async () => {
    await signIn();
    renderApp('/logout?db=0&op=2', fakeServer());
    expect(await screen.findByText('Thank you for using the document archive. You have been signed out.')).toBeTruthy();
    expect(getSession()).toBeNull();
  });
});
