#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether `serve` could listen on an address, asked before the first build so that a taken
/// port is reported at once, in words, instead of after a whole build as a bind errno.
package enum PortProbe {
    package enum Outcome: Equatable, Sendable {
        case free
        case inUse
        /// The host does not resolve, or the address cannot be bound for another reason.
        case unavailable(String)
    }

    /// Binds (and closes at once) a socket on each address `host` resolves to: in use when any
    /// of them is taken, free when at least one binds. Like the server, it sets `SO_REUSEADDR`,
    /// so connections lingering in TIME_WAIT from an earlier preview do not count, while a
    /// socket listening there does.
    package static func check(host: String, port: Int) -> Outcome {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            return .unavailable("cannot resolve host '\(host)': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var node: UnsafeMutablePointer<addrinfo>? = first
        var outcome = Outcome.unavailable("no address to listen on")
        while let info = node {
            node = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            let bound = bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            let failure = errno
            close(fd)
            if bound == 0 {
                outcome = .free
            } else if failure == EADDRINUSE {
                return .inUse
            } else if outcome != .free {
                outcome = .unavailable(String(cString: strerror(failure)))
            }
        }
        return outcome
    }
}
