/**
 * The URL ledger's file format (`url-ledger.json` beside the catalog), described for its published
 * JSON Schema. The build writes the file and reads it back with its own checks, which report each
 * problem on its line (src/catalog/ledger.ts); this schema says the same for editors and other tools.
 */
import { z } from 'astro/zod';

const datasetVersion = z.string().min(1);

export const ledgerEntrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[0-9a-f]{16}$/)
      .describe("The record's id: 16 lowercase hex characters, as in the record."),
    repo: z.string().min(1).describe('Its repository, "owner/name", when it was last published.'),
    title: z.string().describe('"Class: message", shown on the removal notice once the record is gone.'),
    paths: z
      .array(z.string().regex(/^\/[^/]+\/[^/]+\/[^/]+\/$/))
      .min(1)
      .describe('Every page path the record has had, without the base path, oldest first: the last is its page while it lives; the others redirect to it.'),
    since: datasetVersion.describe('The dataset version it was first published in.'),
    removedIn: datasetVersion
      .nullable()
      .describe('The dataset version it disappeared from the catalog in (its old URLs then say it was removed); null while it lives.'),
  })
  .meta({ title: 'errdex URL ledger entry' });

export const urlLedgerFileSchema = z
  .object({
    about: z.string().optional().describe('A sentence for whoever opens the file; the build writes it.'),
    version: z.literal(1).describe('The version of this format: 1.'),
    entries: z.array(ledgerEntrySchema).describe('One entry per record ever published, sorted by id.'),
  })
  .meta({
    title: 'errdex URL ledger (url-ledger.json)',
    description: 'Every page URL the catalog has published, kept beside the catalog and committed with it; the build reads it and writes it back after publishing.',
  });
