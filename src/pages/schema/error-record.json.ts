/** The published JSON Schema of the catalog format, generated from the zod schema. */
import type { APIRoute } from 'astro';
import { errorRecordJsonSchema } from '../../schema/record.ts';

export const GET: APIRoute = () =>
  new Response(`${JSON.stringify(errorRecordJsonSchema(), null, 2)}\n`, { headers: { 'Content-Type': 'application/schema+json' } });
