/** Failure classes: the catalog's own small file (`classes.json` at the catalog root) that `backgroundTag` refers to. */
import { z } from 'astro/zod';

const text = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: `is longer than ${max} characters` })
    .refine((s) => s.trim() !== '', { error: 'must not be empty or only white space' });

export const failureClassSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { error: 'must be lowercase kebab case, e.g. "protocol-handshake"' })
      .describe("The class's id, lowercase kebab case: what a record's backgroundTag names, and its page /classes/{id}/."),
    title: text(120).describe('Its name, as a heading: e.g. "Protocol and framing mismatches".'),
    summary: text(300).describe('One sentence saying what the errors of this class have in common: shown in lists and on each of its error pages.'),
    explanation: text(20_000).describe('The class explained for someone who just met one of its errors: paragraphs of plain text separated by blank lines, `code` spans allowed.'),
  })
  .meta({ title: 'errdex failure class', description: 'A kind of failure that errors of many repositories share.' });

export const failureClassesFileSchema = z.array(failureClassSchema).meta({
  title: 'errdex failure classes (classes.json)',
  description: "The catalog's failure classes: classes.json at the catalog's root, an array of classes; every record's backgroundTag names one.",
});

export type FailureClass = z.infer<typeof failureClassSchema>;
