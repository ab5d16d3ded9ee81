// Standalone development entry (the shell loads src/app/App.tsx through remoteEntry.js).
// Async boundary: shared modules are initialised before the code that imports them runs.
void import('./bootstrap.js'); // '.js': TypeScript's node16 resolution; rspack maps it to .tsx
