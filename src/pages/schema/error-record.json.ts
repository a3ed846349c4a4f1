/** The published JSON Schema of the catalog format, generated from the zod schema. */
import type { APIRoute } from 'astro';
import { schemaText } from '../../views/api.ts';

export const GET: APIRoute = () => new Response(schemaText(), { headers: { 'Content-Type': 'application/schema+json' } });
