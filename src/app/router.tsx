import { Navigate, createBrowserRouter } from 'react-router-dom';
import { AppLayout } from './layout';
import { Root } from './root';
import { RouteError } from './route-error';

/** The routes of user-app.md §2 built so far; every other address goes to /select. */
export function createAppRouter() {
  return createBrowserRouter([
    {
      element: <Root />,
      errorElement: <RouteError />,
      // Shown while the first lazy route loads (a few ms from the precache); nothing is better than a flash.
      hydrateFallbackElement: <></>,
      children: [
        { path: 'login', lazy: () => import('./routes/login') },
        { path: 'direct', lazy: () => import('./routes/direct') },
        { path: 'logout', lazy: () => import('./routes/logout') },
        {
          element: <AppLayout />,
          errorElement: <RouteError />,
          children: [
            { path: 'select', lazy: () => import('./routes/select') },
            { path: 'view', lazy: () => import('./routes/view') },
            { path: 'scan', lazy: () => import('./routes/scan') },
            { path: 'results/:searchHash', lazy: () => import('./routes/results') },
            { path: 'settings', lazy: () => import('./routes/settings') },
          ],
        },
        { index: true, element: <Navigate to="/select" replace /> },
        { path: '*', element: <Navigate to="/select" replace /> },
      ],
    },
  ]);
}
