/**
 * The ledger stage: the updated URL ledger (planned by validation, src/catalog/snapshot.ts) is written
 * beside the catalog after publishing, so that it only ever records URLs that were published; unless
 * --no-ledger-update (preview builds, tests).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { displayPath } from '../../catalog/load.ts';
import type { StageContext } from '../pipeline.ts';
import type { BuildState } from '../state.ts';

export async function ledger(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  const { file, text } = s.messageIndex!.ledger;
  let summary: string;
  if (existsSync(file) && readFileSync(file, 'utf8') === text) summary = `${displayPath(file)} unchanged`;
  else if (!s.settings.updateLedger) summary = `${displayPath(file)} not updated (--no-ledger-update)`;
  else {
    writeFileSync(file, text);
    summary = `${displayPath(file)} updated: commit it with the catalog`;
  }
  s.board.stage('ledger').end({ summary, items: 0, unit: '' });
}
