/**
 * Start-up: the stored session (and a token in the address), the configuration, the language, then
 * the router and the app. The error handler's effects are wired to the router and the toasts here.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApiText } from './api/api-text';
import { configureErrorHandler } from './api/error-handler';
import { configureHttp } from './api/http';
import { getConfig, loadConfig } from './app/config';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { invalidateServerData } from './sync/react/server-data';
import { onCatalogueChange } from './api/catalogue-version';
import { configureConnectivity } from './api/connectivity';
import { navigateTo, preloadRoute } from './app/router';
import { captureTokenFromAddress, clearSession, getSession, getToken, loadSession } from './session/session';
import { nameTokenSession } from './app/user-change';
import { i18n } from './i18n/i18n';
import { applyLanguage, initialLanguage } from './i18n/languages';
import { showLeaseExpired } from './ui/lease-expired';
import { notify } from './ui/notifications';
import './app/app.css';

async function start() {
  // The contract's error texts in the user's language (src/api imports no i18n).
  configureApiText((key, params) => i18n.t(key, params));
  // config.json and the remembered language load while the session is read, and the address's page
  // while all of them are: the first screen waits for the slowest, not for the sum.
  preloadRoute(window.location.pathname);
  const configLoaded = loadConfig();
  const languageChosen = initialLanguage();
  await loadSession();
  const previous = getSession();
  const addressToken = await captureTokenFromAddress(window);
  if (getToken() === null) preloadRoute(window.location.pathname, false);
  const config = await configLoaded;
  configureHttp({ baseUrl: () => getConfig().apiBaseUrl, token: getToken });
  // After calls failed for want of a connection: is the server there again? Any answer says yes
  // (this one is refused: no credentials), and nothing is sent that could be logged.
  configureConnectivity({
    probe: () => fetch(`${getConfig().apiBaseUrl}/api/licenses`, { cache: 'no-store' }).then(() => true, () => false),
  });
  const queryClient = createQueryClient();
  // A session taken from the address has no user name yet, and what is cached is keyed by it
  // (sessionScope): named only once the screen had asked, every call of the first screen was made
  // again under the name. So the rights (which name the user) are read beside the language, and kept
  // under the name, before anything renders.
  const named = addressToken !== null && getSession()?.userName === null ? nameTokenSession(queryClient, previous) : null;
  await applyLanguage(await languageChosen, { cdnUrl: config.languageCdnUrl });
  await named;
  // An administrator changed archives, fields, lists or searches (seen on any answer): read them again.
  onCatalogueChange(() => void invalidateServerData(queryClient));
  configureErrorHandler({
    navigate: navigateTo,
    currentUrl: () => window.location.pathname + window.location.search,
    notify,
    showLeaseExpired,
    endSession: (nextUrl) => void clearSession(nextUrl),
  });

  const el = document.getElementById('root');
  if (!el) throw new Error('#root is missing from index.html');
  createRoot(el).render(
    <StrictMode>
      <AppProviders queryClient={queryClient} />
    </StrictMode>,
  );
}

void start();
