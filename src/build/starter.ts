/**
 * The files `errdex init` writes (scripts/init.ts), as text: what a new project holds besides its
 * sample catalog. Kept here, not as template files, so that a test can read them without writing.
 */

/** A folder's name as an npm package name: lower case, letters, digits, "-", "." and "_". */
export function packageName(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[-]+$/g, '');
  return name === '' ? 'errdex-site' : name.slice(0, 214);
}

const CONFIG = `// errdex: this site's settings. Each can also be set by an environment variable at build time
// (ERRDEX_SITE_NAME, ERRDEX_SITE_URL, ERRDEX_BASE_PATH, ERRDEX_REPORT_URL, ERRDEX_DATA, ERRDEX_DIST),
// which wins over the value here. Unknown keys and wrong values stop the build, naming the key.
export default {
  siteName: 'My project’s errors',
  tagline: 'What an error means, where it is thrown, and how to fix it.',
  // The public origin (no path): canonical URLs, sitemaps, short links. The Pages workflow sets it.
  siteUrl: 'https://example.org',
  // A sub-path such as /my-repo for a GitHub Pages project site; '' at a domain's root.
  basePath: '',
  // "Report a problem with this entry" opens a prefilled issue here.
  reportIssueUrl: 'https://github.com/OWNER/REPO/issues/new',
  // The records: a folder searched for *.json and *.jsonl files. Commit its url-ledger.json too.
  catalog: 'catalog',
  outDir: 'dist',
  // Overrides, paths in this project: an image before the site's name, stylesheets after errdex's
  // own, and errdex components replaced by yours (same props), by their path below errdex's src/components/.
  // logo: './src/logo.svg',
  customCss: ['./src/custom.css'],
  // components: { 'error/Solutions.astro': './src/Solutions.astro' },
  // What each repository of the catalog is: a line under its name, and its own site beside GitHub.
  // repositories: { 'OWNER/REPO': { description: 'What it does, in one line.', homepage: 'https://example.org/docs' } },
};
`;

const CSS = `/* Applied after errdex's own stylesheets on every page. errdex's colours are custom properties
   (node_modules/errdex/src/styles/tokens.css, light and dark); set them here to change the look: */
:root {
  --accent: light-dark(#0969da, #4493f8);
  --link: light-dark(#0550ae, #4493f8);
}
`;

const WORKFLOW = `# Builds the site and publishes it to GitHub Pages on every push to main, then commits the URL ledger
# back, so that the next build knows every URL published so far (old URLs redirect, removed entries
# say so). Settings > Pages > Source: GitHub Actions.
name: Pages

on:
  push:
    branches: [main]
  workflow_dispatch:

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  publish:
    runs-on: ubuntu-latest
    permissions:
      contents: write # push the URL ledger
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    env:
      ASTRO_TELEMETRY_DISABLED: "1"
    steps:
      - uses: actions/checkout@v6
      - uses: actions/setup-node@v6
        with:
          node-version: 24
      - id: pages
        uses: actions/configure-pages@v6
      - run: if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
      # Highlighted code and the published pages, which the next build reuses instead of rendering again.
      - uses: actions/cache/restore@v5
        with:
          path: .errdex/cache
          key: errdex-\${{ github.ref_name }}-\${{ github.run_id }}-\${{ github.run_attempt }}
          restore-keys: errdex-\${{ github.ref_name }}-
      - run: npx errdex build --host=github-pages
        env:
          ERRDEX_SITE_URL: \${{ steps.pages.outputs.origin }}
          ERRDEX_BASE_PATH: \${{ steps.pages.outputs.base_path }}
          ERRDEX_REPORT_URL: \${{ github.server_url }}/\${{ github.repository }}/issues/new
      - uses: actions/cache/save@v5
        with:
          path: .errdex/cache
          key: errdex-\${{ github.ref_name }}-\${{ github.run_id }}-\${{ github.run_attempt }}
      - uses: actions/upload-pages-artifact@v5
        with:
          path: dist
      - id: deployment
        uses: actions/deploy-pages@v5
      - name: Commit the URL ledger
        run: |
          git add catalog/url-ledger.json
          if git diff --cached --quiet; then exit 0; fi
          git -c user.name=github-actions -c user.email=github-actions@users.noreply.github.com commit -m "URL ledger of run \${{ github.run_id }}"
          git push origin HEAD:\${{ github.ref_name }}
`;

const README = (name: string) => `# ${name}

An [errdex](https://www.npmjs.com/package/errdex) site: one page per error in \`catalog/\`, found by
pasting what the terminal printed into its search box.

\`\`\`sh
npm install
npm run build      # validate catalog/ and build the site into dist/
npm run preview    # serve dist/ on http://127.0.0.1:4321/
npm run validate   # list every problem of the catalog, build nothing
npm update errdex  # upgrade errdex
\`\`\`

- \`errdex.config.mjs\`: the site's name, URL, base path, report URL, catalog folder, logo, extra CSS
  and replaced components. Wrong keys stop the build and are named.
- \`catalog/\`: the records (\`*.jsonl\`, one per line, or \`*.json\`), \`classes.json\` (the failure
  classes they name) and \`url-ledger.json\` (written by each build: commit it). The three sample
  records come with errdex; \`catalog/README.md\` says where their code comes from. Replace them with
  yours, or write records from your code with \`npx errdex scan /path/to/repo --out catalog/\`.
- \`src/\`: this site's overrides (\`src/custom.css\`, a logo, components).
- \`.github/workflows/pages.yml\`: builds and publishes to GitHub Pages on every push to main.
`;

const GITIGNORE = `node_modules/
dist/
.errdex/
skipped-records.json
`;

/** Each file's path in the project -> its text. `version`: the errdex that writes them, which the project depends on. */
export function projectFiles({ name, version }: { name: string; version: string }): Record<string, string> {
  const pkg = {
    name: packageName(name),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: { build: 'errdex build', preview: 'errdex preview', validate: 'errdex validate' },
    dependencies: { errdex: `^${version}` },
  };
  return {
    'package.json': `${JSON.stringify(pkg, null, 2)}\n`,
    'errdex.config.mjs': CONFIG,
    'src/custom.css': CSS,
    '.github/workflows/pages.yml': WORKFLOW,
    'README.md': README(name),
    '.gitignore': GITIGNORE,
  };
}
