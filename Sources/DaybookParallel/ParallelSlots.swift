import Foundation

/// Results of `DispatchQueue.concurrentPerform`, one slot per iteration, read back in order.
///
/// Each iteration writes only its own slot; the lock makes that safe in the compiler's eyes and
/// costs one uncontended acquire per iteration. Reading back by index keeps parallel work deterministic.
public final class ParallelSlots<Value: Sendable>: @unchecked Sendable {
    @usableFromInline var slots: [Value?]
    @usableFromInline let lock = NSLock()

    @inlinable public init(count: Int) { slots = Array(repeating: nil, count: count) }

    @inlinable public func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    /// The filled slots, in index order.
    @inlinable public var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
