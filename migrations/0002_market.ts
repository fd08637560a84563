/**
 * Market data tables. Every figure column is nullable unless the row means
 * nothing without it: a NULL is "unknown", never 0. Each row names the
 * dataset it came from; `datasets` holds that dataset's provenance.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE datasets (
      id text PRIMARY KEY,
      title text NOT NULL,
      source text NOT NULL,
      upstream text NOT NULL,
      path text NOT NULL,
      repository text NOT NULL,
      commit text NOT NULL,
      licence text NOT NULL,
      recorded_at text NOT NULL,
      as_of text NOT NULL,
      retrieved_at timestamptz NOT NULL,
      rows integer NOT NULL,
      skipped jsonb NOT NULL DEFAULT '{}',
      notes text,
      pack_version text,
      coverage_symbols integer,
      coverage_first date,
      coverage_last date
    )`
  yield* sql`
    CREATE TABLE sectors (
      code text PRIMARY KEY,
      name text NOT NULL UNIQUE,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE securities (
      symbol text PRIMARY KEY,
      name text NOT NULL,
      sector_code text,
      sector_name text,
      is_etf boolean NOT NULL,
      is_debt boolean NOT NULL,
      security_type text NOT NULL,
      search_text text NOT NULL,
      dataset text NOT NULL
    )`
  yield* sql`CREATE INDEX securities_sector ON securities (sector_name, symbol)`
  yield* sql`
    CREATE TABLE index_membership (
      index_code text NOT NULL,
      symbol text NOT NULL,
      effective_date date NOT NULL,
      weight_pct numeric,
      free_float_shares numeric,
      market_cap numeric,
      dataset text NOT NULL,
      PRIMARY KEY (index_code, symbol, effective_date)
    )`
  yield* sql`
    CREATE TABLE index_levels (
      code text PRIMARY KEY,
      name text NOT NULL,
      level numeric NOT NULL,
      previous numeric,
      as_of date NOT NULL,
      previous_date date,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE daily_prices (
      symbol text NOT NULL,
      series text NOT NULL CHECK (series IN ('as_traded', 'eod')),
      date date NOT NULL,
      open numeric,
      high numeric,
      low numeric,
      close numeric NOT NULL,
      volume numeric,
      flag text,
      dataset text NOT NULL,
      PRIMARY KEY (symbol, series, date)
    )`
  yield* sql`
    CREATE TABLE price_disagreements (
      symbol text PRIMARY KEY,
      factor numeric NOT NULL,
      points integer NOT NULL,
      agreeing integer NOT NULL,
      first_date date NOT NULL,
      last_date date NOT NULL,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE quotes (
      symbol text PRIMARY KEY,
      price numeric NOT NULL,
      previous_close numeric,
      open numeric,
      high numeric,
      low numeric,
      change numeric,
      change_pct numeric,
      volume numeric,
      as_of timestamptz NOT NULL,
      basis text NOT NULL,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE fundamentals (
      symbol text PRIMARY KEY,
      market_cap numeric,
      price numeric,
      change_pct numeric,
      change_year_pct numeric,
      pe_ttm numeric,
      dividend_yield_pct numeric,
      free_float_shares numeric,
      volume_30d_avg numeric,
      shares_outstanding numeric,
      face_value numeric,
      eps numeric,
      listed_in text[] NOT NULL DEFAULT '{}',
      as_of text NOT NULL,
      dataset text NOT NULL,
      warmed_at timestamptz
    )`
  yield* sql`
    CREATE TABLE company_profiles (
      symbol text PRIMARY KEY,
      description text,
      fiscal_year_end text,
      shares numeric,
      free_float_shares numeric,
      free_float_pct numeric,
      market_cap numeric,
      circuit_low numeric,
      circuit_high numeric,
      week52_low numeric,
      week52_high numeric,
      as_of timestamptz NOT NULL,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE financial_lines (
      symbol text NOT NULL,
      period_type text NOT NULL CHECK (period_type IN ('annual', 'quarterly')),
      period text NOT NULL,
      fiscal_year integer,
      quarter integer,
      line text NOT NULL,
      value numeric NOT NULL,
      units text NOT NULL,
      dataset text NOT NULL,
      PRIMARY KEY (symbol, period_type, period, line)
    )`
  yield* sql`
    CREATE TABLE company_ratios (
      symbol text NOT NULL,
      period text NOT NULL,
      name text NOT NULL,
      value numeric NOT NULL,
      dataset text NOT NULL,
      PRIMARY KEY (symbol, period, name)
    )`
  yield* sql`
    CREATE TABLE payouts (
      id text PRIMARY KEY,
      symbol text NOT NULL,
      announced_at timestamptz,
      period_end date,
      period_type text,
      details text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('cash', 'bonus', 'right')),
      percent numeric,
      amount_per_share numeric,
      sequence text,
      book_closure_from date,
      book_closure_to date,
      dataset text NOT NULL
    )`
  yield* sql`CREATE INDEX payouts_symbol ON payouts (symbol, book_closure_from DESC)`
  yield* sql`
    CREATE TABLE payout_coverage (
      symbol text PRIMARY KEY,
      coverage text NOT NULL CHECK (coverage IN ('recorded', 'unknown')),
      data_coverage_start date,
      dataset text NOT NULL
    )`
  yield* sql`
    CREATE TABLE corporate_actions (
      id text PRIMARY KEY,
      symbol text NOT NULL,
      kind text NOT NULL,
      ex_date date,
      ratio numeric,
      details text NOT NULL,
      dataset text NOT NULL
    )`
  yield* sql`CREATE INDEX corporate_actions_symbol ON corporate_actions (symbol, ex_date DESC)`
  yield* sql`
    CREATE TABLE announcements (
      id text PRIMARY KEY,
      symbol text NOT NULL,
      company_name text,
      published_at timestamptz NOT NULL,
      title text NOT NULL,
      document_url text,
      image_url text,
      revoked boolean NOT NULL DEFAULT false,
      source_type text NOT NULL DEFAULT 'filing',
      dataset text NOT NULL
    )`
  yield* sql`CREATE INDEX announcements_symbol ON announcements (symbol, published_at DESC)`
  yield* sql`CREATE INDEX announcements_published ON announcements (published_at DESC, id)`
  yield* sql`
    CREATE TABLE news_items (
      id text PRIMARY KEY,
      symbol text,
      title text NOT NULL,
      url text,
      published_at timestamptz NOT NULL,
      event_date date,
      republished boolean NOT NULL DEFAULT false,
      dataset text NOT NULL
    )`
})
