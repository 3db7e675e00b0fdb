import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { extractToken, getSession, setSession } from '../session/session';
import { resetLeaseExpired } from '../ui/lease-expired';
import { nameTokenSession } from './user-change';

/**
 * A `token` in the address (e.g. /view?db=1&token=... from /direct, or a link from another product)
 * becomes the session, and the address is replaced without it before anything else renders. The
 * session is named after the token's user, as a sign-in names it: what the device keeps is kept
 * per user (sessionScope), a stamp writes the user's name, and another user's cached answers and
 * kept documents are dropped (user-change.ts). Without an answer (offline) the session stays unnamed until the header learns the name.
 */
export function TokenCapture({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hasToken = new URLSearchParams(location.search).has('token');
  useEffect(() => {
    if (!hasToken) return;
    const { token, cleanUrl } = extractToken(location.pathname + location.search + location.hash);
    void (async () => {
      const previous = getSession();
      if (token && previous?.token !== token) {
        await setSession({ token, licenceType: null, userName: null });
        resetLeaseExpired();
        await nameTokenSession(queryClient, previous);
      }
      void navigate(cleanUrl, { replace: true });
    })();
  }, [hasToken, location, navigate, queryClient]);
  if (hasToken) return null;
  return <>{children}</>;
}
