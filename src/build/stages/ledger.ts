/**
 * The ledger stage: says what became of the URL ledger (planned by validation, src/catalog/snapshot.ts).
 * The publish stage wrote it beside the catalog in one step with the site (src/build/publish-step.ts),
 * so that it only ever records URLs that were published; unless --no-ledger-update (preview builds, tests).
 */
import type { StageContext } from '../pipeline.ts';
import type { BuildState } from '../state.ts';

export async function ledger(ctx: StageContext<BuildState>): Promise<void> {
  const s = ctx.state;
  s.board.stage('ledger').end({ summary: s.ledgerSummary!, items: 0, unit: '' });
}
