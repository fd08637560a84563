/**
 * Every migration, keyed `<id>_<name>` and imported statically so the same
 * list runs under Node, Deno and vitest. Add a file, then a line here.
 */
import m0001 from "./0001_service.ts"
import m0002 from "./0002_market.ts"
import m0003 from "./0003_ledger.ts"
import m0004 from "./0004_dataset_retrieval.ts"
import m0005 from "./0005_ledger_audit.ts"
import m0006 from "./0006_market_version.ts"
import m0007 from "./0007_fundamentals_snapshots.ts"
import m0010 from "./0010_crawl_state.ts"
import m0013 from "./0013_ledger_exact_chain.ts"
import m0014 from "./0014_anonymous_expiry.ts"
import m0015 from "./0015_securities_delisted.ts"
import m0016 from "./0016_market_change_log.ts"
import m0017 from "./0017_ledger_deployment_key.ts"
import m0018 from "./0018_api_keys_paging.ts"
import m0020 from "./0020_news_source_keywords.ts"
import m0021 from "./0021_filing_dates.ts"
import m0022 from "./0022_index_closes.ts"
import m0024 from "./0024_entitlement_dismissals.ts"
import m0025 from "./0025_portfolio_settings.ts"
import m0026 from "./0026_market_history.ts"
import m0042 from "./0042_web_sessions.ts"

export const migrations = {
  "0001_service": m0001,
  "0002_market": m0002,
  "0003_ledger": m0003,
  "0004_dataset_retrieval": m0004,
  "0005_ledger_audit": m0005,
  "0006_market_version": m0006,
  "0007_fundamentals_snapshots": m0007,
  "0010_crawl_state": m0010,
  "0013_ledger_exact_chain": m0013,
  "0014_anonymous_expiry": m0014,
  "0015_securities_delisted": m0015,
  "0016_market_change_log": m0016,
  "0017_ledger_deployment_key": m0017,
  "0018_api_keys_paging": m0018,
  "0020_news_source_keywords": m0020,
  "0021_filing_dates": m0021,
  "0022_index_closes": m0022,
  "0024_entitlement_dismissals": m0024,
  "0025_portfolio_settings": m0025,
  "0026_market_history": m0026,
  "0042_web_sessions": m0042
}
