/** The environment variable that names a render process's context file: the build sets it, src/context.ts reads it. */
export const CONTEXT_ENV = 'ERRDEX_CONTEXT';
