/** The published JSON Schema of the catalog's classes.json (src/views/schemas.ts). */
import type { APIRoute } from 'astro';
import { servedSchemaText } from '../../views/schemas.ts';

export const GET: APIRoute = () => new Response(servedSchemaText('classes'), { headers: { 'Content-Type': 'application/schema+json' } });
