import DaybookTestSupport
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the browser, said so that a failing test reads as its cause.
struct BrowserError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Debian's headless Chromium, driven over the DevTools protocol on a pipe.
///
/// `--remote-debugging-pipe` makes Chromium read commands on its fd 3 and write answers and
/// events on its fd 4, each a JSON object ended by a NUL byte. A pipe rather than a port: nothing
/// to allocate, nothing another process can connect to, and the browser quits when we go away.
/// Nothing is downloaded: the tests use the system's `/usr/bin/chromium` (`scripts/install-deps`).
final class Chromium: Sendable {
    static let path = "/usr/bin/chromium"

    let pid: pid_t
    /// A fresh profile folder, removed on `close()`, so no run sees another's cache or storage.
    let profile: URL
    /// Our end of the browser's fd 3.
    private let commands: Int32
    /// Our end of the browser's fd 4; the reader thread owns it and closes it at end of file.
    private let replies: Int32
    private let state = Mutex(State())

    private struct State {
        var nextID = 1
        var waiting: [Int: CheckedContinuation<Data, any Error>] = [:]
        var ended = false
    }

    /// Starts the browser, or fails saying how to install it.
    static func launch() throws -> Chromium {
        guard access(path, X_OK) == 0 else {
            throw BrowserError("\(path) is missing: the browser tests need Debian's chromium package; run scripts/install-deps")
        }
        // Writing to a browser that has died must fail with EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let profile = SiteFixture.temporaryFolder("chromium")
        let toBrowser = try Pipe.make()
        let fromBrowser = try Pipe.make()
        let arguments = [
            path, "--headless=new", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
            "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
            "--disable-background-networking", "--disable-extensions", "--disable-sync", "--mute-audio",
            "--hide-scrollbars", "about:blank",
        ]
        let pid = try spawn(arguments, fd3: toBrowser.read, fd4: fromBrowser.write, log: profile.appending(path: "chromium.log").path)
        Glibc.close(toBrowser.read)
        Glibc.close(fromBrowser.write)
        let browser = Chromium(pid: pid, profile: profile, commands: toBrowser.write, replies: fromBrowser.read)
        let thread = Thread { [browser] in browser.readLoop() }
        thread.name = "chromium-reader"
        thread.start()
        return browser
    }

    private init(pid: pid_t, profile: URL, commands: Int32, replies: Int32) {
        self.pid = pid
        self.profile = profile
        self.commands = commands
        self.replies = replies
    }

    /// Sends one command and waits for its answer's `result`.
    ///
    /// `session` addresses a page attached with `Target.attachToTarget(flatten: true)`.
    @discardableResult
    func send(_ method: String, _ params: [String: Any] = [:], session: String? = nil, timeout: Duration = .seconds(10)) async throws -> [String: Any] {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message: [String: Any] = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let bytes = try JSONSerialization.data(withJSONObject: message) + [0]
        let reply: Data = try await withCheckedThrowingContinuation { continuation in
            let ended = state.withLock { state in
                if state.ended { return true }
                state.waiting[id] = continuation
                return false
            }
            if ended {
                continuation.resume(throwing: BrowserError("chromium has quit; \(method) was not sent (see \(profile.path)/chromium.log)"))
                return
            }
            if !writeAll(bytes) {
                if let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) {
                    waiting.resume(throwing: BrowserError("could not send \(method) to chromium: \(String(cString: strerror(errno)))"))
                }
                return
            }
            Task { [self] in
                try? await Task.sleep(for: timeout)
                if let waiting = self.state.withLock({ $0.waiting.removeValue(forKey: id) }) {
                    waiting.resume(throwing: BrowserError("chromium gave no answer to \(method) within \(timeout)"))
                }
            }
        }
        guard let object = try JSONSerialization.jsonObject(with: reply) as? [String: Any] else {
            throw BrowserError("chromium answered \(method) with something not a JSON object")
        }
        if let error = object["error"] as? [String: Any] {
            throw BrowserError("\(method) failed: \(error["message"] as? String ?? "\(error)")")
        }
        return object["result"] as? [String: Any] ?? [:]
    }

    /// Asks the browser to quit, then makes sure it and every process it started are gone.
    func close() async {
        _ = try? await send("Browser.close", timeout: .seconds(2))
        let deadline = ContinuousClock.now + .seconds(3)
        var status: Int32 = 0
        var exited = false
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                exited = true
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        // Its own process group (see `spawn`): this reaches the renderers and helpers too.
        kill(-pid, SIGKILL)
        if !exited { waitpid(pid, &status, 0) }
        Glibc.close(commands)
        try? FileManager.default.removeItem(at: profile)
    }

    private func writeAll(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(commands, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Splits the browser's output into messages and hands each answer to its waiting command.
    /// Events are not kept: the tests poll the page's state instead, which cannot miss one.
    private func readLoop() {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(replies, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: chunk[..<count])
            while let end = pending.firstIndex(of: 0) {
                let message = Data(pending[..<end])
                pending.removeSubrange(...end)
                deliver(message)
            }
        }
        Glibc.close(replies)
        let waiting = state.withLock { state in
            state.ended = true
            defer { state.waiting = [:] }
            return state.waiting
        }
        for continuation in waiting.values {
            continuation.resume(throwing: BrowserError("chromium quit before answering (see \(profile.path)/chromium.log)"))
        }
    }

    private func deliver(_ message: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any],
            let id = (object["id"] as? NSNumber)?.intValue
        else { return }
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: message)
    }

    /// `posix_spawn` with the pipe ends on fds 3 and 4, output to a log file, in a new process
    /// group so `close()` can end the whole browser at once.
    private static func spawn(_ arguments: [String], fd3: Int32, fd4: Int32, log: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_adddup2(&actions, fd3, 3)
        posix_spawn_file_actions_adddup2(&actions, fd4, 4)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { throw BrowserError("could not start \(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }
}

/// A pipe whose ends are close-on-exec (Glibc's `pipe2` is not imported into Swift, so the ends
/// are duplicated with `F_DUPFD_CLOEXEC`) and numbered 10 or above, so that the `dup2` onto the
/// browser's fds 3 and 4 never meets an end already there (a `dup2` onto itself would leave it
/// close-on-exec, and the browser would start without its pipe).
private enum Pipe {
    static func make() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BrowserError("pipe: \(String(cString: strerror(errno)))") }
        let read = fcntl(ends[0], F_DUPFD_CLOEXEC, 10)
        let write = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        Glibc.close(ends[0])
        Glibc.close(ends[1])
        guard read >= 0, write >= 0 else { throw BrowserError("fcntl: \(String(cString: strerror(errno)))") }
        return (read, write)
    }
}
