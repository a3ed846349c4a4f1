/** Failure classes: the catalog's own small file (`classes.json` at the catalog root) that `backgroundTag` refers to. */
import { z } from 'astro/zod';

export const failureClassSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lowercase kebab case, e.g. "protocol-handshake"' }),
  title: z.string().min(1).max(120),
  summary: z.string().min(1).max(300),
  explanation: z.string().min(1).max(20_000),
});

export const failureClassesFileSchema = z.array(failureClassSchema);

export type FailureClass = z.infer<typeof failureClassSchema>;
