import DaybookIncremental
import DaybookModel
import Foundation
import Synchronization

/// The fresh memo a build without one to read writes as it goes (`MemoTable.spill`): a
/// temporary file in `.daybook-cache/` that starts as a container and takes each result as it is
/// stored, so that a large site's first build holds none of them (330 MB of its peak). Its save
/// (`commit`) appends the index and puts the file in place of the memo; a build that fails, or
/// never saves, leaves no file (`deinit`), or, killed, a temporary the next save removes.
final class MemoSpillFile: MemoSpill {
    private struct State {
        /// Small results gathered into 1 MiB writes: a large site's 33,000 files' records would
        /// be as many calls.
        var writes: GatheredWrites
        /// The container's bytes so far, those still gathered included.
        var end: Int
        /// Whether the temporary is still this spill's to remove: not once it took the memo's
        /// place, or was removed.
        var ownsFile = true

        /// Where the gathered bytes start in the container.
        var flushed: Int { end - writes.buffer.count }

        mutating func removeFile(at path: String) {
            guard ownsFile else { return }
            unlink(path)
            ownsFile = false
        }
    }

    private let path: String
    private let name: String
    private let start = CacheFile.identity.count
    private let state: Mutex<State>

    private init(path: String, descriptor: Int32) {
        self.path = path
        name = String(path.split(separator: "/").last ?? "")
        state = Mutex(State(writes: GatheredWrites(descriptor: descriptor), end: MemoContainer.header.count))
    }

    deinit {
        state.withLock { state in
            close(state.writes.descriptor)
            state.removeFile(at: path)
        }
    }

    /// Removes the temporary now, for a build that failed: `deinit` would, but the memo may be
    /// let go on another thread, after the build has returned and said it left no file.
    func abandon() { state.withLock { $0.removeFile(at: path) } }

    /// A fresh spill in the site's cache folder, or `nil` when it cannot be made there (the
    /// build then holds its results, and its save reports the folder's problem).
    static func create(site: URL) -> MemoSpillFile? {
        let folder = CacheFile.folder(site)
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST, CacheFile.isRealFolder(folder) else { return nil }
        let path = MemoFile.path(site: site, name: MemoPlace.cacheName) + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        guard FileInfo.writeAll((CacheFile.identity + MemoContainer.header)[...], to: descriptor) == nil else {
            close(descriptor)
            unlink(path)
            return nil
        }
        return MemoSpillFile(path: path, descriptor: descriptor)
    }

    func write(_ bytes: ArraySlice<UInt8>) -> Int? {
        state.withLock { state in
            guard state.writes.failed == nil else { return nil }
            let offset = state.end
            state.writes.put(bytes)
            state.end += bytes.count
            return state.writes.failed == nil ? offset : nil
        }
    }

    func read(_ offset: Int, _ length: Int) -> ArraySlice<UInt8>? {
        state.withLock { state in
            guard offset >= 0, length >= 0, offset <= state.end, length <= state.end - offset else { return nil }
            if offset >= state.flushed {
                let from = offset - state.flushed
                return Array(state.writes.buffer[from..<(from + length)])[...]
            }
            if offset + length > state.flushed { state.writes.flush() }
            guard state.writes.failed == nil else { return nil }
            return FileInfo.read(state.writes.descriptor, at: start + offset, count: length)
        }
    }

    /// Writes what remains of `prepared` (the results still held, the index) and puts the file in
    /// place of the memo; the error when it could not.
    func commit(_ prepared: MemoContainer.Prepared, site: URL, faults: WriteFaults) -> Diagnostic? {
        // What killed builds left (a large site's spill is 300 MB) goes, this one's own aside.
        CacheFile.removeTemporaries(of: MemoPlace.cacheName, in: CacheFile.folder(site), sparing: name)
        return state.withLock { state in
            prepared.appended(at: state.end) { state.writes.put($0) }
            state.writes.flush()
            var failed = state.writes.failed ?? faults.failure(at: .cache(MemoPlace.cacheName))
            if failed == nil && rename(path, MemoFile.path(site: site, name: MemoPlace.cacheName)) != 0 {
                // ENOENT: another build's save removed this temporary as a killed build's; its
                // memo stands, and this one is skipped, as a cache may be.
                if errno == ENOENT { return nil }
                failed = errno
            }
            guard let failed else {
                state.ownsFile = false
                return nil
            }
            state.removeFile(at: path)
            return CacheFile.failure(MemoPlace.cacheName, "write", failed)
        }
    }
}
