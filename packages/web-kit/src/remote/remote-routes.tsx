import type { ReactNode } from 'react';
import { Routes, UNSAFE_RouteContext } from 'react-router-dom';

// React Router's own value for "no parent route" (what <Routes> sees at the top of the app).
const ROOT_ROUTE_CONTEXT = { outlet: null, matches: [], isDataRoute: false };

/**
 * A remote's <Routes>. Its paths ('stats', 'prompts/:id', …) are matched from the site root,
 * both when the shell mounts the remote (a pathless route of the shell's route table) and
 * when the remote runs alone, and without React Router's warning about descendant routes
 * under a parent path without '*'.
 */
export function RemoteRoutes({ children }: { children: ReactNode }) {
  return (
    <UNSAFE_RouteContext.Provider value={ROOT_ROUTE_CONTEXT}>
      <Routes>{children}</Routes>
    </UNSAFE_RouteContext.Provider>
  );
}
