/**
 * The few fields of a record's JSON twin (`/api/errors/{id}.json`) a lookup answers with, beyond what
 * the message index already holds: the whole explanation (the index keeps its first 110 characters),
 * the first solution and the GitHub link to the raising line, as the page makes it. Read leniently: a twin of a newer
 * catalog format may carry more, and a missing field leaves its part of the answer out rather than
 * failing the lookup.
 */
import { z } from 'zod';
import { githubLineUrl, jsonPath } from '../util/urls.ts';

const twinSchema = z.object({
  record: z.object({
    id: z.string(),
    documentation: z.string().optional(),
    solutions: z.array(z.string()).optional(),
    githubUrl: z.string().optional(),
    repo: z.string().optional(),
    analyzedSha: z.string().optional(),
    filePath: z.string().optional(),
    lineNumber: z.number().nullable().optional(),
  }),
});

export interface TwinFacts {
  meaning: string | null;
  firstSolution: string | null;
  githubUrl: string | null;
}

export const twinPath = jsonPath;

/** The facts of a twin, or null when the file is not a twin of that record. */
export function twinFacts(id: string, json: unknown): TwinFacts | null {
  const parsed = twinSchema.safeParse(json);
  if (!parsed.success || parsed.data.record.id !== id) return null;
  const r = parsed.data.record;
  // The page's link: the raising line itself, where the record's own link may span its excerpt.
  const line = r.repo && r.analyzedSha && r.filePath !== undefined ? githubLineUrl({ repo: r.repo, analyzedSha: r.analyzedSha, filePath: r.filePath, lineNumber: r.lineNumber ?? null }) : null;
  return { meaning: r.documentation?.trim() || null, firstSolution: r.solutions?.[0]?.trim() || null, githubUrl: line ?? r.githubUrl ?? null };
}
