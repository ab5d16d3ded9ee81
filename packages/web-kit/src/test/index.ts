// Test helpers for component tests of the front-ends (`@aict/web-kit/testing`; jest only,
// never imported by application code).
export {
  answer,
  buildUser,
  buildWorkspace,
  renderWithClient,
  renderWithProviders,
  stubApi,
  type Answer,
  type StubCall,
  type StubRoutes,
} from './render';
export { loadStylesheet, mockCssModules } from './css-modules';
