/** `/{owner}/{repo}/sitemap.xml` (and `-2`, …): a repository's pages, once the sitemap is split. */
import { partitionRoutes } from '../../../context.ts';
import type { APIRoute, GetStaticPaths } from 'astro';
import { getSitemapPlan } from '../../../views/site-sitemap.ts';
import { urlsetXml, type SitemapFile } from '../../../views/sitemap.ts';

export const getStaticPaths = (() =>
  partitionRoutes(getSitemapPlan()
    .files.filter((f) => /^\/[^/]+\/[^/]+\/[^/]+\.xml$/.test(f.path))
    .map((file) => {
      const [, owner, repo, name] = file.path.split('/');
      return { params: { owner, repo, sitemap: name!.slice(0, -4) }, props: { file } };
    }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ file: SitemapFile }> = ({ props }) =>
  new Response(urlsetXml(props.file.urls), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
