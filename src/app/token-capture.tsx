import { useEffect, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { extractToken, getSession, setSession } from '../session/session';
import { resetLeaseExpired } from '../ui/lease-expired';

/**
 * A `token` in the address (e.g. /view?db=1&token=... from /direct, or a link from another product)
 * becomes the session, and the address is replaced without it before anything else renders.
 */
export function TokenCapture({ children }: { children: ReactNode }) {
  const location = useLocation();
  const navigate = useNavigate();
  const hasToken = new URLSearchParams(location.search).has('token');
  useEffect(() => {
    if (!hasToken) return;
    const { token, cleanUrl } = extractToken(location.pathname + location.search + location.hash);
    void (async () => {
      if (token && getSession()?.token !== token) {
        await setSession({ token, licenceType: null, userName: null });
        resetLeaseExpired();
      }
      void navigate(cleanUrl, { replace: true });
    })();
  }, [hasToken, location, navigate]);
  if (hasToken) return null;
  return <>{children}</>;
}
