/**
 * Exports of a session to share: Markdown, one self-contained HTML page, or the JSONL
 * records, each checked for secrets before it is written.
 *
 * @module
 */
export {
  type ExportFormat,
  exportFormat,
  type ExportResult,
  exportSession,
  type ExportSource,
  SecretFoundError,
} from "./export_session.ts";
export { type ExportConversation, renderHtml, renderMarkdown } from "./export_render.ts";
export { findSecret, type NamedSecrets, PROVIDER_SECRET, scrubSecrets } from "./secret_scan.ts";
export { type IgnoredFiles, ignoredSecrets } from "./ignored_secrets.ts";
export {
  type BundleResult,
  type BundleSource,
  type SnapshotPath,
  writeBundle,
} from "./bundle_write.ts";
export { replayBundle, type ReplayHost, type ReplayOutcome } from "./replay.ts";
export { type LeftOut, type MakeLink, ScratchCopy } from "./scratch_copy.ts";
