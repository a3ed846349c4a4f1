/**
 * A small static file server for tests, screenshots and benchmarks: serves a built site the way a
 * static host does (directory index.html, 404.html, correct content types), optionally under a base path.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pagefind': 'application/octet-stream',
};

export interface StaticServer {
  url: string;
  server: Server;
  /** Bytes sent per request path since the last reset: for measuring what a query fetches. */
  bytes: Map<string, number>;
  close(): Promise<void>;
}

export function serveStatic(root: string, options: { port?: number; base?: string } = {}): Promise<StaticServer> {
  const dir = resolve(root);
  const base = (options.base ?? '').replace(/\/+$/, '');
  const bytes = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let pathname = decodeURIComponent(url.pathname);
    if (base) {
      if (pathname !== base && !pathname.startsWith(`${base}/`)) return notFound();
      pathname = pathname.slice(base.length) || '/';
    }
    let file = normalize(join(dir, pathname));
    if (!file.startsWith(dir)) return notFound();
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!pathname.endsWith('/')) {
        res.writeHead(301, { Location: `${base}${pathname}/${url.search}` });
        return res.end();
      }
      file = join(file, 'index.html');
    }
    if (!existsSync(file)) return notFound();
    send(file, 200);

    function notFound() {
      const page = join(dir, '404.html');
      if (existsSync(page)) return send(page, 404);
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
    function send(path: string, status: number) {
      const size = statSync(path).size;
      bytes.set(url.pathname, (bytes.get(url.pathname) ?? 0) + size);
      res.writeHead(status, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream', 'Content-Length': size });
      createReadStream(path).pipe(res);
    }
  });
  return new Promise((ok) => {
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      ok({
        url: `http://127.0.0.1:${port}${base}`,
        server,
        bytes,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
