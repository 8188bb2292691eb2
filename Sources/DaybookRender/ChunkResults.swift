import Foundation

/// Results of `DispatchQueue.concurrentPerform`, one slot per iteration.
///
/// Each iteration writes only its own slot, so the slots need no lock against each other; the
/// lock makes that visible to the compiler's Sendable checking and costs one uncontended acquire
/// per chunk.
final class ChunkResults<Value: Sendable>: @unchecked Sendable {
    private var slots: [Value?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
