import Foundation

/// How many pages to render at once: one task per core keeps both busy without oversubscribing.
enum ProcessInfoCores {
    static var count: Int { ProcessInfo.processInfo.activeProcessorCount }
}
