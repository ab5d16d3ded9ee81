// Module declarations for the files rspack bundles (see rspack/index.mjs), so the root
// typecheck accepts their imports in every front-end.
declare module '*.module.css' {
  const classes: Readonly<Record<string, string>>;
  export default classes;
}
declare module '*.css';
declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
