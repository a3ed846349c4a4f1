/** The published JSON Schema of a catalog record file, generated from the zod schema (src/views/schemas.ts). */
import type { APIRoute } from 'astro';
import { servedSchemaText } from '../../views/schemas.ts';

export const GET: APIRoute = () => new Response(servedSchemaText('error-record'), { headers: { 'Content-Type': 'application/schema+json' } });
