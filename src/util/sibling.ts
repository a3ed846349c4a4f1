/**
 * A module beside `from` (an `import.meta.url`) in the form `from` has: the .ts file in the repository,
 * its .js once compiled for the package (tsconfig.pack.json), since Node will not strip the types of
 * a file under node_modules.
 */
export const siblingUrl = (name: string, from: string): URL => new URL(from.endsWith('.js') ? name.replace(/\.ts$/, '.js') : name, from);
