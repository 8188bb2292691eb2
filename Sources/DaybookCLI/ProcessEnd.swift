import Foundation

/// Ends a one-shot command without unwinding: what the caller still holds is never freed piece
/// by piece, the kernel reclaims it at once. Only for the last step of a command, after its
/// output is written (`exit` flushes standard output).
enum ProcessEnd {
    static func exit(_ code: Int32) -> Never {
        Foundation.exit(code)
    }
}
