import Foundation

/// Values made once per build and shared by the rendering tasks, by key: post cards as rendered
/// HTML (`SiteRenderer.cards`).
///
/// Two tasks asking for the same missing key may both make it; the values are equal, so either
/// may stay. Making it outside the lock keeps the other cores rendering.
final class BuildMemo<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    /// The value under `key`, made by `make` the first time it is asked for.
    func value(_ key: Key, make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let value = make()
        lock.withLock { values[key] = value }
        return value
    }
}
