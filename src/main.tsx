/**
 * Start-up: the stored session (and a token in the address), the configuration, the language, then
 * the router and the app. The error handler's effects are wired to the router and the toasts here.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureErrorHandler } from './api/error-handler';
import { configureHttp } from './api/http';
import { getConfig, loadConfig } from './app/config';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { navigateTo } from './app/router';
import { captureTokenFromAddress, clearSession, getToken, loadSession } from './app/session';
import { applyLanguage, initialLanguage } from './i18n/languages';
import { showLeaseExpired } from './ui/lease-expired';
import { notify } from './ui/notifications';
import './app/app.css';

async function start() {
  await loadSession();
  await captureTokenFromAddress(window);
  const config = await loadConfig();
  configureHttp({ baseUrl: () => getConfig().apiBaseUrl, token: getToken });
  await applyLanguage(await initialLanguage(), { cdnUrl: config.languageCdnUrl });

  const queryClient = createQueryClient();
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
