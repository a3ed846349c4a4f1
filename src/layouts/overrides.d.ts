// The virtual modules of a project's overrides (src/integration.ts).
declare module 'virtual:errdex/logo' {
  export const logo: import('astro').ImageMetadata | null;
}
declare module 'virtual:errdex/custom-css' {}
