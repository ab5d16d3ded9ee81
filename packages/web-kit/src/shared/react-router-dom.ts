// What the 'react-router-dom' share key provides (see rspack/index.mjs): the declarative-mode
// API of React Router 7, one instance for the shell and every remote.
//
// Shared modules are not tree-shaken, and the whole of react-router (data routers, SSR,
// forms, fetchers, cookies, sessions) weighs ~60 KB gzip: more than the shell's budget for
// its router. Sharing this curated list instead keeps ~16 KB of it. Every app imports
// routing from 'react-router-dom' as usual; a name missing here would be undefined at run
// time, so react-router-dom.test.ts checks every import in frontends/ against this list.
// Need another function? Add it here (value exports only; types come from the package).
export {
  BrowserRouter,
  HashRouter,
  MemoryRouter,
  Router,
  Routes,
  Route,
  Navigate,
  Outlet,
  Link,
  NavLink,
  useHref,
  useInRouterContext,
  useLinkClickHandler,
  useLocation,
  useMatch,
  useNavigate,
  useNavigationType,
  useOutlet,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRoutes,
  useSearchParams,
  useBeforeUnload,
  createPath,
  createRoutesFromChildren,
  createRoutesFromElements,
  createSearchParams,
  generatePath,
  matchPath,
  matchRoutes,
  parsePath,
  renderMatches,
  resolvePath,
  NavigationType,
  UNSAFE_LocationContext,
  UNSAFE_NavigationContext,
  UNSAFE_RouteContext,
} from 'react-router';
