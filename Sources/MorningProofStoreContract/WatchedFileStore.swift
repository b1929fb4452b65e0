import Foundation
import MorningProofCore

/// The files and folders `source add` watches, and what was last read of each file.
public protocol WatchedFileStore: Sendable {
    /// The paths watched (files or folders), in the order added.
    func metricSources() async throws -> [String]
    /// Watches a path; false when it was already watched.
    func addMetricSource(_ path: String, at instant: Date) async throws -> Bool
    /// Stops watching a path (and forgets what was read of the files under it); the totals
    /// already read stay. False when it was not watched.
    func removeMetricSource(_ path: String) async throws -> Bool
    /// What was last read of a file, or nil when it never was.
    func watchedFile(_ path: String) async throws -> WatchedFileState?
    /// Every file read so far, by path.
    func watchedFiles() async throws -> [String: WatchedFileState]
    /// Records what was read of a file (without any samples).
    func saveWatchedFile(_ state: WatchedFileState) async throws
}
