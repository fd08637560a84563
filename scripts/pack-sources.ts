/**
 * The recordings the pack's market datasets are built from: repository,
 * commit, licence and when each was retrieved (each folder's PROVENANCE.md).
 */
export const MTAUHA = {
  repository: "github.com/mtauha/psxdata",
  commit: "2efc0c0e7f4cd67f69299c6c103fa9b311eb2305",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-04-08"
}
export const IZAIFA = {
  repository: "github.com/I-Zaifa/psx-analyzer",
  commit: "45b2e559e32af60b9cb2c2bca28719405141125c",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2026-07-08"
}
export const CHUBSB = {
  repository: "github.com/ChubsB/KSE-100-Data",
  commit: "92e707ffe673fb8a4baf66de778e7a63948dba7b",
  licence: "MIT (recording); data © Pakistan Stock Exchange",
  recordedAt: "2023-05-27"
}
