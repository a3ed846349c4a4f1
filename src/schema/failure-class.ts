/** Failure classes: the catalog's own small file (`classes.json` at the catalog root) that `backgroundTag` refers to. */
import { z } from 'astro/zod';

const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `is longer than ${max} characters` })
    .refine((s) => s.trim() !== '', { error: 'must not be empty or only white space' });

export const failureClassSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lowercase kebab case, e.g. "protocol-handshake"' }),
  title: text(120),
  summary: text(300),
  explanation: text(20_000),
});

export const failureClassesFileSchema = z.array(failureClassSchema);

export type FailureClass = z.infer<typeof failureClassSchema>;
