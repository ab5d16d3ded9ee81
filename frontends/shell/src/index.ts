// Async boundary: the federation runtime initialises the shared modules (react, router, …)
// before the app's code that imports them runs.
void import('./bootstrap.js'); // '.js': TypeScript's node16 resolution; rspack maps it to .tsx
