import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { loginUrl } from '../api/error-handler';
import { useValidateLicence } from '../features/licence/api/validate-licence';
import { getConfig } from './config';
import { clearSession, getSessionEndTarget, updateSession } from '../session/session';
import { useSession } from '../session/use-session';

/**
 * App routes need a session: without one, the login page with a way back here. With one, the
 * licence is validated now and then (config.leaseRecheckSeconds): a token that is no longer valid
 * ends on the licence-expired page; a restricted licence is sent back to /select.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const validation = useValidateLicence(session?.token ?? null, getConfig().leaseRecheckSeconds);
  const answer = validation.data;

  useEffect(() => {
    if (!answer || !session) return;
    if (!answer.Valid) {
      void navigate('/direct?op=2', { replace: true });
      void clearSession('/direct?op=2');
      return;
    }
    const restricted = answer.Restricted ?? false;
    const licenceType = answer.Type ?? session.licenceType;
    if (restricted !== (session.restricted ?? false) || licenceType !== session.licenceType) {
      void updateSession({ restricted, licenceType });
    }
  }, [answer, session, navigate]);

  const restricted = session?.restricted ?? false;
  const onSelect = location.pathname === '/select';
  useEffect(() => {
    if (restricted && !onSelect && location.pathname !== '/settings') void navigate('/select', { replace: true });
  }, [restricted, onSelect, location.pathname, navigate]);

  if (!session) {
    return <Navigate to={getSessionEndTarget() ?? loginUrl({ redirectUrl: location.pathname + location.search })} replace />;
  }
  return <>{children}</>;
}
